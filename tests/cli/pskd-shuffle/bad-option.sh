. "$TESTDIR/../lib.sh"
no_usage pskd-shuffle -x ten.psk.d
