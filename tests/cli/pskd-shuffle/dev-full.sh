seq 0 9 | pskd-pack -t 'idx[50]' -o ten.psk.d
pskd-shuffle ten.psk.d > /dev/full; echo "exit $?"
pskd-shuffle -i ten.psk.d > /dev/full; echo "exit $?"
