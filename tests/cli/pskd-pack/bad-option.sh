pskd-pack -x
