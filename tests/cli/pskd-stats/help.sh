pskd-stats --help | head -1
