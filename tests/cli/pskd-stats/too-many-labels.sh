pskd-stats -l a -l b x
