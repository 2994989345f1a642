# --help: the usage to standard output, exit 0 (t/synopsis checks the rest).
pskd-unzst --help | head -n 1
