printf "[1,2]\n[1,2]\n[3,0]\n" | pskd-pack -t "idx[3][2]" > out.psk
