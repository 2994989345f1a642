# -t: only the WARC-Types asked for become documents.
pskd-unwarc -t conversion "$TESTDIR/../../data/warc"/cc-whirlwind.warc.wet "$TESTDIR/../../data/warc"/cc-whirlwind.warc.gz
