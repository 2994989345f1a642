pskd-filter --help | head -n 5
pskd-filter --version | sed 's/ .*//'
