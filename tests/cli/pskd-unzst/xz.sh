pskd-unzst "$TESTDIR/data/docs.jsonl.xz"
