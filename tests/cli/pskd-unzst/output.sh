pskd-unzst -o out.jsonl "$TESTDIR/data/docs.jsonl.xz" "$TESTDIR/data/docs.jsonl.bz2"
ls -A
cat out.jsonl
