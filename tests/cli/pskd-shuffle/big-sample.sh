# Samples of 1.2 MB (more than the 1 MiB output buffer) come out whole.
for k in 0 1 2; do
	seq $((k * 7)) $((k * 7 + 299999)) | paste -sd , | sed 's/.*/[&]/'
done | pskd-pack -t 'idx[1000000][300000]' -o b.psk.d
pskd-shuffle -i -s 5 b.psk.d | paste -sd ' '
pskd-shuffle -s 5 b.psk.d > out.psk.d
# the samples in -i order, cut from the file (header of 38 bytes)
for k in $(pskd-shuffle -i -s 5 b.psk.d); do
	tail -c +$((39 + k * 1200000)) b.psk.d | head -c 1200000
done | cmp - out.psk.d -i 0:38 && echo same
