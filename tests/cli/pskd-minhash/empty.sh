# No documents: a header alone, with the minhash parameters.
pskd-shingle < /dev/null | pskd-minhash | "$TESTDIR/../pskd-shingle/dump.py"
