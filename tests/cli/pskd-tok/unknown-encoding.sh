pskd-tok -E bogus < /dev/null > /dev/null
