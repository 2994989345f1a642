# SIGPIPE ends it quietly.
for i in 1 2 3 4 5 6 7 8; do cat "$TESTDIR/../../data/warc"/made.warc.gz; done | pskd-unwarc -q | head -c1
