pskd-pack < /dev/null
