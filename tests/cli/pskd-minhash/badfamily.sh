pskd-minhash -a cminhash < /dev/null
