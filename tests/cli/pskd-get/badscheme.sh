pskd-get -u ftp://example.org/x
