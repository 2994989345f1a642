# Three ranks of 10 samples: 3 each, disjoint, and the 10th in no slice;
# their union in rank order is the epoch order at positions 0..8.
seq 0 9 | pskd-pack -t 'idx[50]' -o ten.psk.d
for r in 0 1 2; do
	pskd-shuffle -i -s 3 --rank $r --world 3 ten.psk.d | paste -sd ' '
done
pskd-shuffle -i -s 3 ten.psk.d | paste -sd ' '
pskd-shuffle -i -s 3 --rank 2 --world 3 --start 1 -n 1 ten.psk.d
