pskd-lsh -t 1.5 < /dev/null
