# Two modes asked for: refused with both options named, not the last taken.
. "$TESTDIR/../lib.sh"
no_usage pskd-lsh --apply v.tsv --pairs < /dev/null
