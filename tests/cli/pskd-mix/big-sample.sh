# Samples of 1.2 MB (more than the 1 MiB output buffer) from two files
# come out whole, in the order -i gives.
for k in 0 1 2; do
	seq $((k * 7)) $((k * 7 + 299999)) | paste -sd , | sed 's/.*/[&]/'
done | pskd-pack -t 'idx[1000000][300000]' -o a.psk.d
for k in 0 1; do
	seq $((k * 5 + 1)) $((k * 5 + 300000)) | paste -sd , | sed 's/.*/[&]/'
done | pskd-pack -t 'idx[1000000][300000]' -o b.psk.d
pskd-mix -i -s 5 a.psk.d:1 b.psk.d:1 | paste -sd ' '
pskd-mix -s 5 a.psk.d:1 b.psk.d:1 > out.psk.d
# the samples in -i order, cut from the files (headers of 38 bytes)
for p in $(pskd-mix -i -s 5 a.psk.d:1 b.psk.d:1); do
	f=a.psk.d; [ "${p%%:*}" = 1 ] && f=b.psk.d
	tail -c +$((39 + ${p#*:} * 1200000)) $f | head -c 1200000
done | cmp - out.psk.d -i 0:38 && echo same
