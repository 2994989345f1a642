# -k 3: the three best labels as an object, best first.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
head -n 2 "$TESTDIR/docs.jsonl" | pskd-lid -q -m lid176 -k 3
sed -n 8p "$TESTDIR/docs.jsonl" | pskd-lid -q -m lid176 -k 3 --as lang
