pskd-info -z
