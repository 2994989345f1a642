cp "$TESTDIR/data/trunc.gz" . && pskd-unzst -H trunc.gz
