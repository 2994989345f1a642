pskd-tok --help | head -4
