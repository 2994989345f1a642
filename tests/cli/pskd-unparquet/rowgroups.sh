cd "$TESTDIR/data" && for g in 1 1- 2-9 5 0/3 1/3 2/3; do echo "-g $g"; pskd-unparquet -g $g -c token_count docs.parquet; done
