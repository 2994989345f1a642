# The EXAMPLES of pskd-get(1), verbatim, on file:// URLs.
printf '{"text": "one"}\n{"text": "two"}\n' > docs.jsonl
zstd -q docs.jsonl
for i in 1 2 3; do cp docs.jsonl.zst "part-$i.jsonl.zst"; done
for i in 1 2 3; do echo "file://$PWD/part-$i.jsonl.zst"; done > urls.txt
pskd-get -q -j 4 -d shards urls.txt
pskd-get --verify -d shards
pskd-get -q --resume-only -d shards urls.txt
pskd-get -u "file://$PWD/docs.jsonl.zst" | pskd-unzst | wc -l
ls shards
