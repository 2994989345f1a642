# A pipe may carry the streaming count: it is read to its end.
seq 0 9 | pskd-pack -t "idx[10]" | pskd-export -f nanogpt -e 9 -o out > /dev/null
od -An -tu2 out/train.bin
