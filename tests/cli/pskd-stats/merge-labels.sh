pskd-stats -m -l a -l b x y
