# A reader that goes away ends pskd-shuffle quietly (SIGPIPE).
seq 0 300000 | awk '{ print $1 % 50 }' | pskd-pack -t 'idx[50]' -o t.psk.d
pskd-shuffle t.psk.d | head -c1 | od -An -c
pskd-shuffle -i t.psk.d | head -c1
