cp "$TESTDIR/data/garbage.zst" . && pskd-unzst garbage.zst
