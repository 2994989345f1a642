seq 0 9 | pskd-pack -t 'idx[50]' -o ten.psk.d
pskd-shuffle -i --start 10 ten.psk.d; echo "exit $?"
pskd-shuffle -i --world 4 --start 3 ten.psk.d
