# No tokens, or too few for a row, give no windows; a stream without any
# end-of-text id is one document; a reader that goes away ends
# pskd-window quietly.
printf '' | pskd-pack -t 'idx[50]' -o none.psk.d
pskd-window -t 3 --align bos -e 9 none.psk.d | pskd-info -n 0 | sed -n 2,3p
pskd-window -t 3 --pack best-fit -e 9 --segments none.psk.d | pskd-info -n 0 | sed -n 2,3p
printf '9\n' | pskd-pack -t 'idx[50]' | pskd-window -t 3 --align bos -e 9 | pskd-info -s
printf '1\n2\n3' | pskd-pack -t 'idx[50]' | pskd-window -t 3 --pack best-fit -e 9 | pskd-info -s
echo one document
printf '1\n2\n3\n4\n5\n6' | pskd-pack -t 'idx[50]' | pskd-window -t 2 --align bos -e 9 --segments | pskd-info -s
printf '1\n2\n3\n4\n5\n6' | pskd-pack -t 'idx[50]' | pskd-window -t 2 --pack best-fit -e 9 --segments | pskd-info -s
seq 0 200000 | awk '{ print $1 % 50 }' | pskd-pack -t 'idx[50]' -o t.psk.d
pskd-window -t 8 --pack best-fit -e 7 t.psk.d | head -c1 | od -An -c
