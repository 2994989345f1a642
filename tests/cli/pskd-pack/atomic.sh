printf "[1]\n[1]\n[9]\n" | pskd-pack -t "idx[2][1]" -o out.psk; ls -A
