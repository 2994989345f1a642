pskd-shingle "$TESTDIR/docs.jsonl" > /dev/full
