cp "$TESTDIR/data/crc.gz" . && pskd-unzst crc.gz
