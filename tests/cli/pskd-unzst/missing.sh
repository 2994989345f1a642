pskd-unzst "$TESTDIR/data/docs.jsonl.zst" nothere.zst
