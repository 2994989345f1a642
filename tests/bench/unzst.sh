#!/bin/sh
# unzst.sh - pskd-unzst against zstd -dc and gzip -dc on the same 512 MiB of
# JSON Lines, side by side in one run (hyperfine), as throughput ratios.
# Inputs are made once in $PSKD_BENCH_DIR/unzst and reused.
set -eu
d=$PSKD_BENCH_DIR/unzst
mkdir -p "$d"
if [ ! -f "$d/docs.jsonl.gz" ]; then
	echo "making 512 MiB of JSON Lines (once)..."
	python3 - "$d/chunk.jsonl" <<'PY'
import random, sys
rng = random.Random(1)
words = [("".join(rng.choice("etaoinshrdlucmfwypvbgkjqxz")
          for _ in range(rng.randrange(2, 10)))) for _ in range(20000)]
out, size, i = [], 0, 0
while size < 32 << 20:
    t = " ".join(rng.choices(words, k=rng.randrange(20, 400)))
    line = '{"id": "doc-%d", "text": "%s", "lang": "en"}\n' % (i, t)
    out.append(line)
    size += len(line)
    i += 1
open(sys.argv[1], "w").write("".join(out))
PY
	for i in $(seq 16); do cat "$d/chunk.jsonl"; done > "$d/docs.jsonl"
	rm "$d/chunk.jsonl"
	zstd -q -3 -T2 -f "$d/docs.jsonl" -o "$d/docs.jsonl.zst"
	gzip -6 -c "$d/docs.jsonl" > "$d/docs.jsonl.gz.tmp"
	mv "$d/docs.jsonl.gz.tmp" "$d/docs.jsonl.gz"
fi
size=$(wc -c < "$d/docs.jsonl")
echo "input: $size bytes of JSON Lines; zstd $(wc -c < "$d/docs.jsonl.zst"), gzip $(wc -c < "$d/docs.jsonl.gz")"
hyperfine --warmup 1 --runs 5 --export-json "$d/zst.json" \
    "pskd-unzst $d/docs.jsonl.zst > /dev/null" \
    "zstd -q -dc $d/docs.jsonl.zst > /dev/null"
hyperfine --warmup 1 --runs 3 --export-json "$d/gz.json" \
    "pskd-unzst $d/docs.jsonl.gz > /dev/null" \
    "gzip -dc $d/docs.jsonl.gz > /dev/null"
python3 - "$d/zst.json" "$d/gz.json" "$size" <<'PY'
import json, sys
size = int(sys.argv[3])
# Wall-clock minimum (least disturbed by other load) and CPU time.
for path, peer in ((sys.argv[1], "zstd -dc"), (sys.argv[2], "gzip -dc")):
    r = json.load(open(path))["results"]
    a, b = r[0]["min"], r[1]["min"]
    ca = r[0]["user"] + r[0]["system"]
    cb = r[1]["user"] + r[1]["system"]
    print("pskd-unzst %.0f MB/s, %s %.0f MB/s (best of the runs)" % (
        size / a / 1e6, peer, size / b / 1e6))
    print("pskd-unzst/%s throughput: %.2f (CPU time: %.2f)" % (
        peer, b / a, cb / ca))
PY
