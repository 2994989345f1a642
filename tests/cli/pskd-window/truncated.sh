# A file that declares 10 tokens and holds 7 (E9003).
seq 0 9 | pskd-pack -t 'idx[50]' -o t.psk.d
head -c 32 t.psk.d | pskd-window -t 2 > /dev/null
