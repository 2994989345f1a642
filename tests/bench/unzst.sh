#!/bin/sh
# unzst.sh - pskd-unzst against zstd -dc and gzip -dc on the same 512 MiB of
# JSON Lines, and against xz -dc and bzip2 -dc on its first 128 MiB (they
# are slow), side by side in one run (hyperfine), as throughput ratios:
# streamed (the default) and held (-H, each unit until its check passed:
# here all in one, spilled to TMPDIR, as it would be in a pipeline); the
# time to the first byte of each, as a consumer sees it (| head -c 1); the
# peak RSS of each.  Inputs are made once in $PSKD_BENCH_DIR/unzst and
# reused.  The output goes to a pipe (cat > /dev/null), as in a pipeline.
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
run() {	# name runs file peer
	hyperfine --warmup 1 --runs "$2" --export-json "$d/$1.json" \
	    "pskd-unzst $d/$3 | cat > /dev/null" \
	    "pskd-unzst -H $d/$3 | cat > /dev/null" \
	    "$4 $d/$3 | cat > /dev/null"
}
run zst 5 docs.jsonl.zst "zstd -q -dc"
run gz 3 docs.jsonl.gz "gzip -dc"
run xz 3 head.jsonl.xz "xz -dc"
run bz2 3 head.jsonl.bz2 "bzip2 -dc"
hyperfine --warmup 1 --runs 5 --export-json "$d/first.json" \
    "pskd-unzst $d/docs.jsonl.zst | head -c 1 > /dev/null" \
    "pskd-unzst -H $d/docs.jsonl.zst | head -c 1 > /dev/null" \
    "zstd -q -dc $d/docs.jsonl.zst | head -c 1 > /dev/null"
for f in docs.jsonl.zst docs.jsonl.gz head.jsonl.xz head.jsonl.bz2; do
	for h in "" -H; do
		/usr/bin/time -f "%M" -o "$d/rss" pskd-unzst $h "$d/$f" |
		    cat > /dev/null
		echo "pskd-unzst $h $f: peak RSS $(cat "$d/rss") KiB"
	done
done
python3 - "$d" "$size" "$hsize" <<'PY'
import json, sys
d, size, hsize = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# Wall-clock minimum (least disturbed by other load) and CPU time.
for name, peer, n in (("zst", "zstd -dc", size), ("gz", "gzip -dc", size),
                      ("xz", "xz -dc", hsize), ("bz2", "bzip2 -dc", hsize)):
    r = json.load(open("%s/%s.json" % (d, name)))["results"]
    s, h, p = (x["min"] for x in r)
    cpu = [x["user"] + x["system"] for x in r]
    print("pskd-unzst %.0f MB/s, -H %.0f MB/s, %s %.0f MB/s (best of the "
          "runs)" % (n / s / 1e6, n / h / 1e6, peer, n / p / 1e6))
    print("pskd-unzst/%s throughput: %.2f streamed, %.2f held (CPU time: "
          "%.2f, %.2f)" % (peer, p / s, p / h, cpu[2] / cpu[0],
                           cpu[2] / cpu[1]))
r = json.load(open("%s/first.json" % d))["results"]
print("first byte of the zstd shard: pskd-unzst %.3f s, -H %.3f s, "
      "zstd -dc %.3f s" % tuple(x["min"] for x in r))
PY
