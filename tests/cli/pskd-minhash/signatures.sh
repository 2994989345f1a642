# Signatures piped in again: not a shingle stream either.
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash | pskd-minhash
