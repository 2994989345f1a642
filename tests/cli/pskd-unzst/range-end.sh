cp "$TESTDIR/data/docs.jsonl.bz2" . && pskd-unzst -r 0-190 docs.jsonl.bz2
