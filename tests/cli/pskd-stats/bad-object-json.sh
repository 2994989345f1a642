printf '{"pskd_stats":1,"kind":[}\n' | pskd-stats
