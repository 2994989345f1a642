pskd-pack --help
