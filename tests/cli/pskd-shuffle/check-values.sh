# The check values of THE PERMUTATION in pskd-shuffle(1).
seq 0 9 | pskd-pack -t 'idx[50]' -o ten.psk.d
pskd-shuffle -i ten.psk.d | paste -sd ' '
