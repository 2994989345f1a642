printf '{"text":"a b c d e f"}\n' | pskd-shingle | head -c 70 | pskd-stats
