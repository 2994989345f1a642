#!/bin/sh
# unzst.sh - pskd-unzst against zstd -dc and gzip -dc on the same 512 MiB of
# JSON Lines, and against xz -dc and bzip2 -dc on its first 128 MiB (they
# are slow), side by side in one run (hyperfine), as throughput ratios;
# the peak RSS of each.  Inputs are made once in $PSKD_BENCH_DIR/unzst and
# reused.  The output goes to a pipe (cat > /dev/null), as in a pipeline,
# so pskd-unzst holds each unchecked unit (here all in one) and spills it
# to TMPDIR as it would there.
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
if [ ! -f "$d/head.jsonl.bz2" ]; then
	echo "making the xz and bzip2 files of 128 MiB (once)..."
	head -c 134217728 "$d/docs.jsonl" > "$d/head.jsonl"
	# xz -T2: several blocks, as xz 5.6 makes by default.
	xz -T2 -6 -c "$d/head.jsonl" > "$d/head.jsonl.xz"
	bzip2 -9 -c "$d/head.jsonl" > "$d/head.jsonl.bz2.tmp"
	mv "$d/head.jsonl.bz2.tmp" "$d/head.jsonl.bz2"
fi
size=$(wc -c < "$d/docs.jsonl")
hsize=$(wc -c < "$d/head.jsonl")
echo "input: $size bytes of JSON Lines; zstd $(wc -c < "$d/docs.jsonl.zst"), gzip $(wc -c < "$d/docs.jsonl.gz")"
echo "input: $hsize bytes; xz $(wc -c < "$d/head.jsonl.xz"), bzip2 $(wc -c < "$d/head.jsonl.bz2")"
export TMPDIR="$d"
hyperfine --warmup 1 --runs 5 --export-json "$d/zst.json" \
    "pskd-unzst $d/docs.jsonl.zst | cat > /dev/null" \
    "zstd -q -dc $d/docs.jsonl.zst | cat > /dev/null"
hyperfine --warmup 1 --runs 3 --export-json "$d/gz.json" \
    "pskd-unzst $d/docs.jsonl.gz | cat > /dev/null" \
    "gzip -dc $d/docs.jsonl.gz | cat > /dev/null"
hyperfine --warmup 1 --runs 3 --export-json "$d/xz.json" \
    "pskd-unzst $d/head.jsonl.xz | cat > /dev/null" \
    "xz -dc $d/head.jsonl.xz | cat > /dev/null"
hyperfine --warmup 1 --runs 3 --export-json "$d/bz2.json" \
    "pskd-unzst $d/head.jsonl.bz2 | cat > /dev/null" \
    "bzip2 -dc $d/head.jsonl.bz2 | cat > /dev/null"
for f in docs.jsonl.zst docs.jsonl.gz head.jsonl.xz head.jsonl.bz2; do
	/usr/bin/time -f "%M" -o "$d/rss" pskd-unzst "$d/$f" | cat > /dev/null
	echo "pskd-unzst $f: peak RSS $(cat "$d/rss") KiB"
done
python3 - "$d/zst.json" "$d/gz.json" "$size" "$d/xz.json" "$d/bz2.json" "$hsize" <<'PY'
import json, sys
size, hsize = int(sys.argv[3]), int(sys.argv[6])
# Wall-clock minimum (least disturbed by other load) and CPU time.
for path, peer, size in ((sys.argv[1], "zstd -dc", size),
                         (sys.argv[2], "gzip -dc", size),
                         (sys.argv[4], "xz -dc", hsize),
                         (sys.argv[5], "bzip2 -dc", hsize)):
    r = json.load(open(path))["results"]
    a, b = r[0]["min"], r[1]["min"]
    ca = r[0]["user"] + r[0]["system"]
    cb = r[1]["user"] + r[1]["system"]
    print("pskd-unzst %.0f MB/s, %s %.0f MB/s (best of the runs)" % (
        size / a / 1e6, peer, size / b / 1e6))
    print("pskd-unzst/%s throughput: %.2f (CPU time: %.2f)" % (
        peer, b / a, cb / ca))
PY
