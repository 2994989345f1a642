pskd-redact --help | head -n 4
pskd-redact --version | sed 's/ .*//'
