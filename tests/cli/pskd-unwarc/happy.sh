# A Common Crawl WARC (a gzip member per record): the page's document.
pskd-unwarc "$TESTDIR/../../data/warc"/cc-whirlwind.warc.gz
