pskd-unparquet $(for i in $(seq 3000); do echo "$TESTDIR/data/docs.parquet"; done) | head -c1
