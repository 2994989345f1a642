# Shingles piped straight in: the one-line error.
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-lsh
