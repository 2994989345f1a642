printf 'ok\n\377\n' | pskd-shingle -l > /dev/null
