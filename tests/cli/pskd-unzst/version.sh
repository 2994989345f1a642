pskd-unzst --version
