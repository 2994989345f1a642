printf '{"text":"a"}\n{"text":\n' | pskd-stats
