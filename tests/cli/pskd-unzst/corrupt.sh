cp "$TESTDIR/data/corrupt.zst" . && pskd-unzst corrupt.zst
