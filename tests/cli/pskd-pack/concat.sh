# Several inputs are concatenated: .psk.d streams of one type, or text.
printf '[1,2]\n' | pskd-pack -t 'idx[3][2]' > a.psk.d
printf '[2,0]\n[0,1]\n' | pskd-pack -t 'idx[3][2]' -o b.psk.d
pskd-pack -o ab.psk.d a.psk.d b.psk.d
pskd-info -s ab.psk.d
printf '[1,1]\n' > c.txt
printf '[0,0]' > d.txt
pskd-pack -t 'idx[3][2]' c.txt d.txt | pskd-info -s
