pskd-shingle -x < /dev/null
