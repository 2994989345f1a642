# The default: every document kept, with the top label of lid.176 and its
# score appended (the scores are python3-fasttext's for the same text).
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
pskd-lid -q -m lid176 "$TESTDIR/docs.jsonl"
