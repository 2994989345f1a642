# The EXAMPLES of pskd-mix(1), verbatim (web.psk.d and code.psk.d are 40
# and 20 windows of 16 tokens).
seq 0 9 | pskd-pack -t 'idx[50]' -o ten.psk.d
seq 10 14 | pskd-pack -t 'idx[50]' -o five.psk.d
pskd-mix -i -s 42 ten.psk.d:0.7 five.psk.d:0.3 | paste -sd ' '
pskd-mix -s 42 -B 3 -n 2 ten.psk.d:0.7 five.psk.d:0.3 | pskd-info -s
pskd-mix -i -s 42 --rank 1 --world 3 ten.psk.d:0.7 five.psk.d:0.3 | paste -sd ' '
pskd-mix -i -s 42 --start 7 ten.psk.d:0.7 five.psk.d:0.3 | paste -sd ' '
seq 0 640 | pskd-pack -t 'idx[1000]' | pskd-window -t 16 -o web.psk.d
seq 0 320 | pskd-pack -t 'idx[1000]' | pskd-window -t 16 -o code.psk.d
pskd-mix -s 42 -e 1 -B 32 web.psk.d:0.7 code.psk.d:0.3 > epoch1.psk.d
pskd-info -n 0 epoch1.psk.d | sed -n 2,3p
