printf "[1,2]\n" | pskd-pack -t "idx[3][2]" -o x.psk
printf "\000" >> x.psk
pskd-info x.psk
