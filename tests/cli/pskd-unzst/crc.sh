cp "$TESTDIR/data/crc.gz" . && pskd-unzst -H crc.gz
