printf '{"version": 1, "shards": [\n]}\n' > m.json
mkdir d
pskd-report m.json d > /dev/full
