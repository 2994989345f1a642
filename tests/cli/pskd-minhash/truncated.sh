pskd-shingle < "$TESTDIR/docs.jsonl" | head -c 100 | pskd-minhash > /dev/null
