pskd-stats -k x
