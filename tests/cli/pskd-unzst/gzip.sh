pskd-unzst < "$TESTDIR/data/docs.jsonl.gz"
