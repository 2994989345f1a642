yes "[1,2]" | head -n 2000000 | pskd-pack -t "idx[3][2]" | head -c4
