pskd-unparquet -c s.b.c,id,m "$TESTDIR/data/nested.parquet"
