. "$TESTDIR/../lib.sh"
no_usage pskd-stats -k x
