# -s numbers an input of an index, or a shard of --map: alone, a usage error.
. "$TESTDIR/../lib.sh"
no_usage pskd-lsh -s 3 < /dev/null
