pskd-unwarc -q - < "$TESTDIR/../../data/warc"/warcio-example.warc.gz
