# One document of 300001 u32 tokens (1.2 MB, more than the 1 MiB reads):
# --align bos carries it in rows of T+1 = 100001 that overlap by one
# token, which are the windows of stride T: the same bytes.  Best-fit
# crops it to its first row.
seq 0 300000 | pskd-pack -t 'idx[1000000]' -o t.psk.d
pskd-window -t 100000 --single -o plain.psk.d t.psk.d
pskd-window -t 100000 --single --align bos -e 999999 -o align.psk.d t.psk.d
cmp plain.psk.d align.psk.d && echo same
pskd-info -n 0 align.psk.d | sed -n 2,3p
pskd-window -t 100000 --single --pack best-fit -e 999999 -o fit.psk.d t.psk.d
pskd-info -n 0 fit.psk.d | sed -n 3p
# Both headers are 43 bytes: the row is the first window's 400004 bytes.
head -c 400047 plain.psk.d | tail -c +44 > a
tail -c +44 fit.psk.d | cmp - a && echo first row
