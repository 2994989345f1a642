pskd-minhash -x < /dev/null
