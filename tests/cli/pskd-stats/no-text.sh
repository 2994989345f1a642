printf '{"id":"a"}\n' | pskd-stats
