# No end-of-text id at all: one document, its head.
printf '1\n2\n' | pskd-pack -t 'idx[10]' | pskd-stats -k 1
