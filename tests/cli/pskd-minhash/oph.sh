# One-permutation hashing with densification, seed 3.
cp "$TESTDIR/docs.jsonl" .
pskd-shingle docs.jsonl | pskd-minhash -a oph -k 8 -s 3 |
    "$TESTDIR/../pskd-shingle/dump.py"
