cd "$TESTDIR/data" && pskd-unparquet -c l.list nested.parquet
