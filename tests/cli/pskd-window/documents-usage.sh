# The document modes' usage errors: no -e, an alignment or packing that
# does not exist, -s with them, -N without best-fit, both modes.
. "$TESTDIR/../lib.sh"
no_usage pskd-window -t 3 --align bos < /dev/null; echo "exit $?"
no_usage pskd-window -t 3 --segments < /dev/null; echo "exit $?"
no_usage pskd-window -t 3 --align eos -e 9 < /dev/null; echo "exit $?"
no_usage pskd-window -t 3 --pack first-fit -e 9 < /dev/null; echo "exit $?"
no_usage pskd-window -t 3 -s 2 --align bos -e 9 < /dev/null; echo "exit $?"
no_usage pskd-window -t 3 -N 5 --align bos -e 9 < /dev/null; echo "exit $?"
no_usage pskd-window -t 3 --align bos --pack best-fit -e 9 < /dev/null; echo "exit $?"
no_usage pskd-window -t 3 --pack best-fit -N 0 -e 9 < /dev/null; echo "exit $?"
