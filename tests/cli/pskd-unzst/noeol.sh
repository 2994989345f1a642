pskd-unzst "$TESTDIR/data/noeol.zst"
