. "$TESTDIR/../lib.sh"
no_usage pskd-window -x
