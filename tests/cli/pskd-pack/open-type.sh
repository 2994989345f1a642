pskd-pack -t "idx[V][seq: T]" < /dev/null
