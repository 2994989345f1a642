# A bad file: no -o file at all, no temporary left.
head -c 3000 "$TESTDIR/../../data/warc"/warcio-example.warc > t.warc; pskd-unwarc -q -o out.jsonl "$TESTDIR/../../data/warc"/cc-whirlwind.warc.wet.gz t.warc; s=$?; ls -A; exit $s
