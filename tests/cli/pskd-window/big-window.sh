# Windows of 300000 u32 tokens (1.2 MB, more than the 1 MiB buffers):
# 600001 tokens give two --single windows, tokens 0..300000 and
# 300000..600000; compared byte for byte with slices of the input.
seq 0 600000 | pskd-pack -t 'idx[1000000]' -o t.psk.d
pskd-window -t 300000 --single t.psk.d > w.psk.d
pskd-info -n 0 w.psk.d | sed -n 2,3p
# headers: 10 + 12 + 8 = 30 bytes in, 10 + 25 + 8 = 43 bytes out
tail -c +31 t.psk.d | head -c 1200004 > a
tail -c +31 t.psk.d | tail -c +1200001 > b
cat a b | cmp - w.psk.d -i 0:43 && echo same
pskd-window -t 300000 t.psk.d | pskd-info -n 0 | sed -n 3p
