printf '{"text":"a"}\n' | pskd-stats > /dev/full
