cd "$TESTDIR/data" && pskd-unparquet -c id,s.a,id flat.parquet
