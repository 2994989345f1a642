pskd-unparquet -b -n 2 -c lang "$TESTDIR/data/badutf8.parquet"
