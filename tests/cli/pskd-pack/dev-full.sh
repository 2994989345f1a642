printf "[1,2]\n" | pskd-pack -t "idx[3][2]" > /dev/full
