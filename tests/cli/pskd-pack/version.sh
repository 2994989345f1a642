pskd-pack --version
