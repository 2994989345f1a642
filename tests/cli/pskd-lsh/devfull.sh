pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash | pskd-lsh > /dev/full
