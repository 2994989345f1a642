# A length or stride of 0, or no length, is a usage error.
. "$TESTDIR/../lib.sh"
no_usage pskd-window -t 0 < /dev/null; echo "exit $?"
no_usage pskd-window -t 3 -s 0 < /dev/null; echo "exit $?"
no_usage pskd-window < /dev/null; echo "exit $?"
no_usage pskd-window -t 3x < /dev/null; echo "exit $?"
