# b x r must be the stream's k.
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash -k 64 | pskd-lsh
