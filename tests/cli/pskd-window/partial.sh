# A stream of u16 tokens that ends in the middle of one (E9003).
seq 0 9 | pskd-pack -t 'idx[1000]' | head -c 44 | pskd-window -t 2 > /dev/null
