pskd-info -n x
