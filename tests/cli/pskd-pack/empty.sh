pskd-pack -t "idx[3]" -o e.psk < /dev/null && od -An -tx1 e.psk
