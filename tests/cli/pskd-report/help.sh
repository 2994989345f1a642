pskd-report --help | head -1
