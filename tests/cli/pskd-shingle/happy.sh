# Word 5-grams; the hashes checked against `printf '...' | xxhsum -H3`.
cp "$TESTDIR/docs.jsonl" .
pskd-shingle docs.jsonl | "$TESTDIR/dump.py"
