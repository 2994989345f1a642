# The EXAMPLES of pskd-window(1), verbatim.
seq 0 9 | pskd-pack -t 'idx[50]' -o tokens.psk.d
pskd-window -t 3 tokens.psk.d | pskd-info -s
pskd-window -t 4 -s 2 --single tokens.psk.d | pskd-info -s
