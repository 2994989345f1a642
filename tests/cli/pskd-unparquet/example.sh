# pskd-unparquet(1): the commands of its EXAMPLES, verbatim.
cp "$TESTDIR/data/docs.parquet" .
pskd-unparquet --schema docs.parquet
pskd-unparquet -n 1 docs.parquet
pskd-unparquet -c text,id docs.parquet | pskd-shingle | pskd-minhash | pskd-lsh -q > kept.jsonl
pskd-unparquet -g 0/2 docs.parquet > part0.jsonl
pskd-unparquet -g 1/2 docs.parquet > part1.jsonl
pskd-unparquet docs.parquet > all.jsonl
cat part0.jsonl part1.jsonl | cmp - all.jsonl
wc -l < kept.jsonl
wc -l < part0.jsonl
