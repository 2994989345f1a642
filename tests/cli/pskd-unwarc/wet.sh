# WET conversion records pass their text through.
pskd-unwarc "$TESTDIR/../../data/warc"/cc-whirlwind.warc.wet.gz
