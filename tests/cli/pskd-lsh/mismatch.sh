# An index made with -w 5 refuses signatures of 3-grams, and says both.
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash | pskd-lsh -q -i idx > /dev/null && pskd-lsh --commit idx
pskd-shingle -w 3 < "$TESTDIR/docs.jsonl" | pskd-minhash | pskd-lsh -i idx
