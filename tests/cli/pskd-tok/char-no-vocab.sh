pskd-tok -E char < /dev/null > /dev/null
