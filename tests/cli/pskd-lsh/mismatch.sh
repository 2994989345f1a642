# An index made with -w 5 refuses signatures of 3-grams.
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash | pskd-lsh -q -i idx > /dev/null
pskd-shingle -w 3 < "$TESTDIR/docs.jsonl" | pskd-minhash | pskd-lsh -i idx
