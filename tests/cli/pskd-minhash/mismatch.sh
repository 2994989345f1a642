# Two inputs shingled with different widths cannot share one stream.
pskd-shingle -w 5 < "$TESTDIR/docs.jsonl" > a
pskd-shingle -w 3 < "$TESTDIR/docs.jsonl" > b
pskd-minhash a b > /dev/null
