. "$TESTDIR/../lib.sh"
no_usage pskd-info -n x
