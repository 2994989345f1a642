{ cat "$TESTDIR/data/docs.jsonl.xz"; printf "\0\0\0\0junk"; } | pskd-unzst
