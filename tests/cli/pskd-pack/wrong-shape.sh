printf "[[1,2],3]\n" | pskd-pack -t "(idx[3][3], idx[4])"
