pskd-minhash < /dev/null
