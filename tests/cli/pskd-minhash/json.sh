# Documents piped straight in: the one-line error.
pskd-minhash < "$TESTDIR/docs.jsonl"
