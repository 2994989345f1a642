cp "$TESTDIR/docs.jsonl" .
pskd-filter -r c4 docs.jsonl > /dev/full
