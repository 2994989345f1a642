pskd-unzst -x "$TESTDIR/data/docs.jsonl.zst"
