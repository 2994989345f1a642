pskd-pack -t "params M" < /dev/null
