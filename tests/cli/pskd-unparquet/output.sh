pskd-unparquet -o out.jsonl -c token_count "$TESTDIR/data/docs.parquet"
ls -A
cat out.jsonl
