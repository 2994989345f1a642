# Documents end at the end-of-text id (9 for idx[10]); the last has none.
printf '1\n2\n9\n3\n9\n4\n' | pskd-pack -t 'idx[10]' | pskd-stats -k 2
