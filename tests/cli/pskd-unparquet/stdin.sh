pskd-unparquet -c id < "$TESTDIR/data/docs.parquet"
cat "$TESTDIR/data/docs.parquet" | pskd-unparquet -c token_count -n 2 -
