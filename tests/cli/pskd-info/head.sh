yes "[1,2]" | head -n 100000 | pskd-pack -t "idx[3][2]" | pskd-info -s -n all | head -c 6
