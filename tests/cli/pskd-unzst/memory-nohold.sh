# -m is what -H holds: alone it is a usage error.
. "$TESTDIR/../lib.sh"
no_usage pskd-unzst -m 4M "$TESTDIR/data/docs.jsonl.zst"
