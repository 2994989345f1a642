cp "$TESTDIR/data/trunc.gz" . && pskd-unzst trunc.gz
