pskd-unzst --help
