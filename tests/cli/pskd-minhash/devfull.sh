pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash > /dev/full
