pskd-unparquet "$TESTDIR/data/docs.parquet" > /dev/full
