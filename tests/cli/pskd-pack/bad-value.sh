printf "[1,2]\n[1,x]\n" | pskd-pack -t "idx[3][2]"
