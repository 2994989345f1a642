. "$TESTDIR/../lib.sh"
no_usage pskd-unwarc --favour-precision --favour-recall x.warc
