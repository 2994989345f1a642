. "$TESTDIR/../lib.sh"
no_usage pskd-report -z m.json d
