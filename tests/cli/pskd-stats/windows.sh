# Windows of 2 tokens, stride 2: 1 9 | 2 3 | 9 4 with their targets.
printf '1\n9\n2\n3\n9\n4\n5\n' | pskd-pack -t 'idx[10]' | pskd-window -t 2 | pskd-stats
