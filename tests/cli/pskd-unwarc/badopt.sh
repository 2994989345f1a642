. "$TESTDIR/../lib.sh"
no_usage pskd-unwarc -x "$TESTDIR/../../data/warc"/made.warc
