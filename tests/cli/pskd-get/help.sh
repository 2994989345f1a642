pskd-get --help > /dev/null
