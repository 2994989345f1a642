# A zstd frame per record: the same documents as the gzip file.
pskd-unwarc -q "$TESTDIR/../../data/warc"/made.warc.zst | cmp - "$(pskd-unwarc -q "$TESTDIR/../../data/warc"/made.warc.gz > gz; echo gz)" && echo same
