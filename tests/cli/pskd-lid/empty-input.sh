# No documents: nothing out, no verdicts, exit 0.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
pskd-lid -q -m lid176 --keep en --verdicts v.tsv < /dev/null
wc -c < v.tsv
