pskd-exact "$TESTDIR/pages.jsonl" > /dev/full
