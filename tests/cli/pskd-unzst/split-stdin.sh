cat "$TESTDIR/data/docs.jsonl.zst" | pskd-unzst -s 2 -
