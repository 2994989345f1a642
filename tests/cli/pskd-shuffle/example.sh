# The EXAMPLES of pskd-shuffle(1), verbatim.
seq 0 9 | pskd-pack -t 'idx[50]' -o ten.psk.d
pskd-shuffle -i -s 42 ten.psk.d | paste -sd ' '
pskd-shuffle -i -s 42 -e 2 ten.psk.d | paste -sd ' '
pskd-shuffle -s 42 -B 4 -n 2 ten.psk.d | pskd-info -s
pskd-shuffle -i -s 42 --rank 1 --world 3 ten.psk.d | paste -sd ' '
pskd-shuffle -i -s 42 --start 6 ten.psk.d | paste -sd ' '
