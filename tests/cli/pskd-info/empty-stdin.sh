pskd-info < /dev/null
