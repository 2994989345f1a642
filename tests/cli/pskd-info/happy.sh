printf "[[0.5,-2],299]\n[[1e-300,3],0]\n" | pskd-pack -t "(ℝ[2], idx[300])" -o x.psk
pskd-info x.psk
