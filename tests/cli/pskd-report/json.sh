# report.json of a small build, checked by hand: two shards, objects by
# label (the shard's name, its file name, another label), a window with
# a byte that is not UTF-8 and a control character.
printf '{"version": 1, "shards": [\n{"url": "u1", "file": "a.jsonl.zst", "bytes": 10, "sha256": null, "etag": null, "status": "pending", "documents": 5, "unique_documents": 4},\n{"url": "u2", "file": "b.jsonl", "bytes": 7, "sha256": null, "etag": null, "status": "failed"}\n]}\n' > m.json
mkdir d
printf 'x\tkeep\ny\tnear_duplicate\tx\t0.85\nz\tempty\n' | pskd-stats -l b.jsonl > d/1.json
printf '1\n9\n2\n2\n' | pskd-pack -t 'idx[10]' | pskd-stats -l b > d/2.json
printf '3\n9\n' | pskd-pack -t 'idx[10]' | pskd-stats -l whole > d/3.json
printf 'not\377 \001utf-8' > w.txt
pskd-report -j r.json -w w.txt m.json d > /dev/null
cat r.json
