seq 0 9 | pskd-pack -t 'idx[50]' -o t.psk.d
pskd-window -t 2 t.psk.d > /dev/full
