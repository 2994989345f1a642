# The EXAMPLES of pskd-filter(1), verbatim, on this folder's documents.
cp "$TESTDIR/docs.jsonl" docs.jsonl
pskd-filter -q -s c4.filter_no_terminal_punct=0 --verdicts v.tsv docs.jsonl > kept.jsonl
cut -f2 v.tsv | sort | uniq -c | sort -rn
printf 'example.com\n# casinos\ncasino.example\n' > blocked.txt
pskd-filter -r url,gopher-quality -s gopher.min_doc_words=20 --url-blocklist blocked.txt --dropped dropped.tsv docs.jsonl > kept.jsonl
cut -f 1-4 dropped.tsv
pskd-filter --settings | grep '^c4\.'
zstd -q < docs.jsonl > shard.jsonl.zst
pskd-unzst shard.jsonl.zst | pskd-filter -q -r gopher-repetition,gopher-quality | pskd-shingle | pskd-minhash | pskd-lsh -q > kept.jsonl
cut -c 1-40 kept.jsonl
