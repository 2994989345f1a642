cd "$TESTDIR/data" && pskd-unparquet -c s,s.a nested.parquet
