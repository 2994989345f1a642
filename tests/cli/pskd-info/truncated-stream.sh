printf "[1,2]\n[2,0]\n[0,0]\n" | pskd-pack -t "idx[3][2]" | head -c 30 | pskd-info -s
