printf '[[0.5,1,2],7]\n[[1,2,3],9]\n' | pskd-pack -t '(ℝ[3], idx[10])' -o pair.psk.d
pskd-info -s pair.psk.d
printf '[[0.25,-1],3]\n' | pskd-pack -t '(ℝ[2], ℝ)' -e f32,bf16 -o small.psk.d
pskd-info -s small.psk.d
od -An -tx1 small.psk.d
