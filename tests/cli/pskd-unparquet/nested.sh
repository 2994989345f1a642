pskd-unparquet "$TESTDIR/data/nested.parquet"
