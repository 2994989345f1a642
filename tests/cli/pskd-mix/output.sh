# A full disk is an error; a reader that goes away ends pskd-mix quietly;
# the short last batch is dropped, and said so.
seq 0 9 | pskd-pack -t 'idx[50]' -o a.psk.d
seq 0 300000 | awk '{ print $1 % 50 }' | pskd-pack -t 'idx[50]' -o t.psk.d
pskd-mix a.psk.d:1 t.psk.d:1 > /dev/full; echo "exit $?"
pskd-mix -i a.psk.d:1 t.psk.d:1 > /dev/full; echo "exit $?"
pskd-mix a.psk.d:1 t.psk.d:1 | head -c1 | od -An -c
pskd-mix -i a.psk.d:1 t.psk.d:1 | head -c1; echo
pskd-mix -i -B 4 -s 3 a.psk.d:3 a.psk.d:1
