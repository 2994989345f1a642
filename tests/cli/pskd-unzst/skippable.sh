pskd-unzst "$TESTDIR/data/skip.zst"
