# Two shards by file:// URL, one with its sha256 and size; the manifest.
printf "first shard\n" > a.jsonl
printf "second shard\n" > b.jsonl
printf "file://%s/a.jsonl\nfile://%s/b.jsonl %s 13\n" "$PWD" "$PWD" \
    "$(sha256sum < b.jsonl | cut -c1-64)" > urls.txt
pskd-get -q -d out urls.txt
cat out/a.jsonl out/b.jsonl
sed "s|$PWD|PWD|" out/manifest.json
pskd-get --verify -d out && echo verified
ls out
