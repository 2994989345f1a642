printf '[0.5,1]\n[2,3]\n' | pskd-pack -t 'ℝ[2]' | pskd-stats
printf '1\n2\n' | pskd-pack -t 'idx[10]' | pskd-stats -t samples
