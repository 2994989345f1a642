seq 0 19 | pskd-pack -t 'idx[50]' -o t.psk.d
head -c 37 t.psk.d > cut.psk.d
pskd-shuffle cut.psk.d
