. "$TESTDIR/../lib.sh"
no_usage pskd-stats -m -l a -l b x y
