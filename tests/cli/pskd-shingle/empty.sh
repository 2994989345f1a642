# No documents: a header alone.
pskd-shingle < /dev/null | "$TESTDIR/dump.py"
