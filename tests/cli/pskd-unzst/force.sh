pskd-unzst -f "$TESTDIR/data/plain.txt" "$TESTDIR/data/docs.jsonl.zst"
