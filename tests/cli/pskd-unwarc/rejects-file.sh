# --rejects: a broken file is recorded and the run goes on with the next.
head -c 3000 "$TESTDIR/../../data/warc/warcio-example.warc" > t.warc
pskd-unwarc -q --rejects r.tsv t.warc "$TESTDIR/../../data/warc/cc-whirlwind.warc.wet" | wc -l
cat r.tsv
