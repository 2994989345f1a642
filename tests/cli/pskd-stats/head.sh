printf '{"text":"a"}\n' > a.jsonl
pskd-stats a.jsonl a.jsonl a.jsonl | head -c1; echo
