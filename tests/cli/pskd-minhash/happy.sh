# k = 8 components; the values checked against tests/t/dedup-ref.py.
cp "$TESTDIR/docs.jsonl" .
pskd-shingle docs.jsonl | pskd-minhash -k 8 | "$TESTDIR/../pskd-shingle/dump.py"
