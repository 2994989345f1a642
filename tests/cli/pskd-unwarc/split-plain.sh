cp "$TESTDIR/../../data/warc"/warcio-example.warc . && pskd-unwarc -s 2 warcio-example.warc
