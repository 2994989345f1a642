printf '{"version": 2, "shards": [\n]}\n' > m.json
mkdir d
pskd-report m.json d
