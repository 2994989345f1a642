pskd-unparquet --version
