# Bytes after the declared tokens are not tokens (E9002).
seq 0 9 | pskd-pack -t 'idx[50]' -o t.psk.d
cat t.psk.d t.psk.d | pskd-window -t 2 > /dev/null
