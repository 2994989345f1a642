pskd-unparquet < /dev/null
