# Five files whose weights no tree over runs keeps under one sample: the
# file that may stray further is named with its bound B_s (pskd-mix(1),
# Proportions; the tree and B_s worked out as THE ORDER says).
seq 0 9 | pskd-pack -t 'idx[50]' -o a.psk.d
for f in b c d e; do cp a.psk.d $f.psk.d; done
pskd-mix -i -L 257 a.psk.d:8 b.psk.d:89 c.psk.d:144 d.psk.d:3 e.psk.d:13 | cut -d: -f1 | sort | uniq -c
