# Epochs count from 1; batches hold at least one sample; a rank is below
# the world; one file, and a file, not standard input.
. "$TESTDIR/../lib.sh"
no_usage pskd-shuffle -e 0 f; echo "exit $?"
no_usage pskd-shuffle -B 0 f; echo "exit $?"
no_usage pskd-shuffle --rank 2 --world 2 f; echo "exit $?"
no_usage pskd-shuffle -s -1 f; echo "exit $?"
no_usage pskd-shuffle; echo "exit $?"
no_usage pskd-shuffle -; echo "exit $?"
