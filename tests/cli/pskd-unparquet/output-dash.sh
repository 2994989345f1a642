# -o - is the standard output (issue 24): no file named "-".
pskd-unparquet -o - -c token_count -n 2 "$TESTDIR/data/docs.parquet"
ls -A
