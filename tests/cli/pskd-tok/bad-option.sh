pskd-tok -x
