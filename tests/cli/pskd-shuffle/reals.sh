# f32 and bf16 leaves keep their encodings in batches (version 2).
printf '[[0.5,1],2]\n[[1.5,2],3]\n[[2.5,3],4]\n' |
    pskd-pack -t '(ℝ[2], ℝ)' -e f32,bf16 -o r.psk.d
pskd-shuffle -s 1 -B 3 r.psk.d | pskd-info
