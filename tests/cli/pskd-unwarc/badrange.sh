. "$TESTDIR/../lib.sh"
no_usage pskd-unwarc -r 10-5 x.warc.gz
