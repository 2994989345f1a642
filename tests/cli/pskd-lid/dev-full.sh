. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
pskd-lid -q -m lid176 "$TESTDIR/docs.jsonl" > /dev/full
