head -c 100 "$TESTDIR/data/docs.jsonl.bz2" | pskd-unzst
