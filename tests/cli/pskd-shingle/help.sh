pskd-shingle --help | head -1
pskd-shingle --version
