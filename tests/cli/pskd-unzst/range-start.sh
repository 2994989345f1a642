cp "$TESTDIR/data/docs.jsonl.gz" . && pskd-unzst -r 7-180 docs.jsonl.gz
