. "$TESTDIR/../lib.sh"
no_usage pskd-report m.json
