pskd-shingle -w 0 < /dev/null
