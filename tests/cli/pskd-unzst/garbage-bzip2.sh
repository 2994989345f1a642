{ cat "$TESTDIR/data/docs.jsonl.bz2"; printf "junk"; } | pskd-unzst
