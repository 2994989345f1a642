pskd-unparquet "$TESTDIR/data/../../pskd-unzst/data/docs.jsonl" 2>&1 | sed 's|.*/data/|DATA/|'
