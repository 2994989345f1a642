pskd-minhash -k 0 < /dev/null
