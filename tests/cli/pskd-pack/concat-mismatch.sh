printf '[1,2]\n' | pskd-pack -t 'idx[3][2]' -o a.psk.d
printf '[1,2]\n' | pskd-pack -t 'idx[4][2]' -o b.psk.d
pskd-pack -o ab.psk.d a.psk.d b.psk.d
ls
