cd "$TESTDIR/data" && pskd-unparquet -c id,lang badutf8.parquet
