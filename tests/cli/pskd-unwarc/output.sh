pskd-unwarc -q -o out.jsonl "$TESTDIR/../../data/warc"/cc-whirlwind.warc.wet.gz && ls -A && wc -l < out.jsonl
