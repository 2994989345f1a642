# pskd-info(1): peek at the first batch of an epoch.  Sample k of the file
# is [[k,k+1],[k+1,k+2]], so the batch shows which samples were drawn.
for k in 0 1 2 3 4 5; do
	echo "[[$k,$((k + 1))],[$((k + 1)),$((k + 2))]]"
done | pskd-pack -t '(idx[10][seq: 2], idx[10][seq: 2])' -o train.psk.d
pskd-shuffle -s 42 -e 1 -B 2 -n 1 train.psk.d | pskd-info
pskd-shuffle -i -s 42 -e 1 train.psk.d | head -n 2
