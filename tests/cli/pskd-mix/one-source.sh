# One file is pskd-shuffle's order, whatever its weight, for every epoch,
# rank and start; the bytes of the samples are the same.
seq 0 99 | pskd-pack -t 'idx[500]' -o s.psk.d
for a in "-e 1" "-e 3" "-s 5 --rank 2 --world 3" "-s 9 --start 17 -B 4"; do
	pskd-shuffle -i $a s.psk.d > want
	pskd-mix -i $a s.psk.d:2.5 | sed 's/0://g' | cmp - want && echo "same: $a"
	pskd-shuffle $a s.psk.d > want
	pskd-mix $a s.psk.d:1 | cmp - want && echo "same bytes: $a"
done
