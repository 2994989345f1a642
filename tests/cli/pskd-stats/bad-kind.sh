pskd-stats -t foo
