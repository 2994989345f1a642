# Epochs count from 1; batches hold at least one sample; a rank is below
# the world; one file.
pskd-shuffle -e 0 f; echo "exit $?"
pskd-shuffle -B 0 f; echo "exit $?"
pskd-shuffle --rank 2 --world 2 f; echo "exit $?"
pskd-shuffle -s -1 f; echo "exit $?"
pskd-shuffle; echo "exit $?"
