printf '{"version": 1, "shards": [\n]}\n' > m.json
pskd-report m.json nope
