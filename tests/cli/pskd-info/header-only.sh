printf "0.5\n" | pskd-pack -t "ℝ" -e bf16 -o x.psk
pskd-info -n 0 x.psk
