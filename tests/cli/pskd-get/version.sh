pskd-get --version
