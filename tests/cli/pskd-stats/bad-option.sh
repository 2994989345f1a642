pskd-stats -z
