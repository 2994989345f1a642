pskd-redact "$TESTDIR/docs.jsonl" > /dev/full
