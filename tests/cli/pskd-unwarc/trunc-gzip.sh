# A gzip file cut inside its last member.
head -c 14000 "$TESTDIR/../../data/warc"/made.warc.gz > t.warc.gz && pskd-unwarc -q t.warc.gz > out; s=$?; wc -l < out; exit $s
