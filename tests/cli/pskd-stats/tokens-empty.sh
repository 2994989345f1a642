pskd-pack -t 'idx[10]' < /dev/null | pskd-stats
