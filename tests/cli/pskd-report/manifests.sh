# Several manifests (one per shard, as share/pskd.mk keeps them): their
# shards in the order given, each with the objects of its name.
mkdir -p a b d
printf '{"version": 1, "shards": [\n{"url": "u2", "file": "s2.jsonl", "bytes": 2, "sha256": null, "etag": null, "status": "complete"}\n]}\n' > b/manifest.json
printf '{"version": 1, "shards": [\n{"url": "u1", "file": "s1.jsonl", "bytes": 1, "sha256": null, "etag": null, "status": "complete"}\n]}\n' > a/manifest.json
printf 'x\tkeep\n' | pskd-stats -l s1 > d/s1.json
printf 'x\tkeep\ny\tkeep\n' | pskd-stats -l s2 > d/s2.json
pskd-report -j r.json b/manifest.json a/manifest.json d > /dev/null
grep -o '"name":"[^"]*","file":"[^"]*","bytes":[0-9]*,"status":"[a-z]*","documents":[0-9]*' r.json
