printf "[1,2]\n" | pskd-pack -t "idx[3][2]" | pskd-info > /dev/full
