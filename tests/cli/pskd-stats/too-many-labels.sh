. "$TESTDIR/../lib.sh"
no_usage pskd-stats -l a -l b x
