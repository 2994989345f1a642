# At -t 0.99 only the exact copy e goes.
pskd-shingle "$TESTDIR/docs.jsonl" | pskd-minhash |
    pskd-lsh -q -t 0.99 --verdicts v.tsv > /dev/null
cat v.tsv
