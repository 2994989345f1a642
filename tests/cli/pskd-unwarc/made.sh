# Chunked and compressed bodies, legacy charsets, a 404, an image, a revisit.
pskd-unwarc "$TESTDIR/../../data/warc"/made.warc.gz
