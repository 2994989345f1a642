pskd-get --verify -d nowhere
