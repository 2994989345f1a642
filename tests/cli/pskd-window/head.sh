# A reader that goes away ends pskd-window quietly (SIGPIPE).
seq 0 200000 | awk '{ print $1 % 50 }' | pskd-pack -t 'idx[50]' -o t.psk.d
pskd-window -t 8 -s 1 t.psk.d | head -c1 | od -An -c
