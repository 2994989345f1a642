pskd-tok -v missing.tiktoken < /dev/null > /dev/null
