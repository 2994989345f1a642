printf 'hello\n' | pskd-stats
