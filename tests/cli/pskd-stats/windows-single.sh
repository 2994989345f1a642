printf '1\n9\n2\n3\n9\n4\n5\n' | pskd-pack -t 'idx[10]' | pskd-window --single -t 2 | pskd-stats -l single
