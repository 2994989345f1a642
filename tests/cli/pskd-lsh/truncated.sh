# A cut stream: exit 1, and no half-written verdict file is left.
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash | head -c 700 |
    pskd-lsh --verdicts v.tsv > /dev/null
status=$?
ls
exit $status
