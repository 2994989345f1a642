pskd-get --verify -u file:///x
