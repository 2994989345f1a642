# The last record without CR LF CR LF after its block: whole all the same.
head -c -4 "$TESTDIR/../../data/warc"/warcio-example.warc | pskd-unwarc -q -a -t none | tail -n 1
