# An index made with 32 x 4 refuses 16 x 8.
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash | pskd-lsh -q -i idx > /dev/null && pskd-lsh --commit idx
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash | pskd-lsh -b 16 -r 8 -i idx
