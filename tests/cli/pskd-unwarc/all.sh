# --all: every record a line; -t none: none is a document.
pskd-unwarc -a -t none "$TESTDIR/../../data/warc"/warcio-example.warc
