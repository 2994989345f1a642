# The last EXAMPLES of pskd-window(1), verbatim, on 40001 tokens: 39
# windows of 1024, one batch of 32 and 7 left over.
seq 0 40000 | awk '{ print $1 % 50 }' | pskd-pack -t 'idx[50]' -o tokens.psk.d
pskd-window -t 1024 tokens.psk.d | pskd-pack -o train.psk.d
pskd-shuffle -s 42 -e 1 -B 32 train.psk.d > epoch1.psk.d
pskd-info train.psk.d | sed -n 2,3p
pskd-info epoch1.psk.d | sed -n 2,3p
