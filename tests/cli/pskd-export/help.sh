pskd-export --help | head -1
pskd-export --version
