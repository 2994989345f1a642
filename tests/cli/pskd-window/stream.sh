# A stream of unknown length gives a stream; into a file, the count is
# written at the end.  A known count gives the count up front.
seq 0 9 | pskd-pack -t 'idx[50]' | pskd-window -t 3 | pskd-info -n 1
seq 0 9 | pskd-pack -t 'idx[50]' | pskd-window -t 3 > w.psk.d
pskd-info -n 0 w.psk.d | sed -n 3p
seq 0 9 | pskd-pack -t 'idx[50]' -o t.psk.d
pskd-window -t 4 -s 1 < t.psk.d | pskd-info -n 0 | sed -n 3p
