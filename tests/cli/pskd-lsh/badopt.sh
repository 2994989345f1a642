pskd-lsh -x < /dev/null
