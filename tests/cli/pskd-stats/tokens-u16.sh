# Two-byte ids, and the default end-of-text id of r50k_base.
printf '50256\n7\n50256\n' | pskd-pack -t 'idx[50257]' | pskd-stats -k 5
