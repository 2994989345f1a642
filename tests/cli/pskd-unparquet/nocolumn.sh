cd "$TESTDIR/data" && pskd-unparquet -c id,nope flat.parquet
