pskd-shingle < /dev/null | pskd-minhash | pskd-lsh
