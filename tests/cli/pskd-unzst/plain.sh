cp "$TESTDIR/data/plain.txt" . && pskd-unzst plain.txt
