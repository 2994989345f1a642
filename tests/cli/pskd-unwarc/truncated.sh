# A truncated record: the records before it go out, it does not.
head -c 3000 "$TESTDIR/../../data/warc"/warcio-example.warc > t.warc && pskd-unwarc -q -a -t none t.warc
