# A range that does not start at a record.
cp "$TESTDIR/../../data/warc"/made.warc.gz . && pskd-unwarc -r 10-2000 made.warc.gz
