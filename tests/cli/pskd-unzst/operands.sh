pskd-unzst "$TESTDIR/data/docs.jsonl.gz" - "$TESTDIR/data/skip.zst" < "$TESTDIR/data/docs.jsonl.zst"
