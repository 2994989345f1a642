head -c 100 "$TESTDIR/data/docs.jsonl.xz" | pskd-unzst -H
