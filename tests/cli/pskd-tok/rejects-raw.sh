# --rejects needs a document a line: not with -r, -d, --build-vocab, --train.
. "$TESTDIR/../lib.sh"
no_usage pskd-tok -r --rejects r.tsv < /dev/null
