pskd-unwarc -q "$TESTDIR/../../data/warc"/made.warc.gz > /dev/full
