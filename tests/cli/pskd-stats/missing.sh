pskd-stats nope.jsonl
