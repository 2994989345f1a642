# A batch of three windows is one sample.
printf '1\n9\n2\n3\n9\n4\n5\n' | pskd-pack -t 'idx[10]' | pskd-window -t 2 | pskd-pack -o w.psk.d
pskd-shuffle -s 1 -B 3 w.psk.d | pskd-stats -l batches
