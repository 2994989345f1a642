pskd-unzst < "$TESTDIR/data/docs.jsonl.bz2"
