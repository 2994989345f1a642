cp "$TESTDIR/data/trunc.zst" . && pskd-unzst trunc.zst
