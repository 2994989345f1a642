pskd-unzst < /dev/null
