printf 'ok\nb\377d\n' | pskd-stats -t lines
