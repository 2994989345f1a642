printf "[1,2]\n" | pskd-pack -t "idx[3][2]" | pskd-pack -t "idx[4][2]" > /dev/null
