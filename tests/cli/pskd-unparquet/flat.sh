pskd-unparquet -c lang,text,score -n 5 "$TESTDIR/data/flat.parquet"
