pskd-unparquet -n 5 "$TESTDIR/data/delta.parquet"
