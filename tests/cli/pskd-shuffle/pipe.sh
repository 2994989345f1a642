# Random access needs a file.
seq 0 9 | pskd-pack -t 'idx[50]' | pskd-shuffle /dev/stdin
