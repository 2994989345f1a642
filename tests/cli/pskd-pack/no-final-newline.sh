printf "[[0.5,7],1]\n[[2,3],0]" | pskd-pack -t "(ℝ[2], idx[2])" | pskd-info -s
