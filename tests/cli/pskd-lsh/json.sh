pskd-lsh < "$TESTDIR/docs.jsonl"
