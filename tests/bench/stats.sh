#!/bin/sh
# stats.sh - pskd-stats against its anchors, side by side in one run:
#   a 1 GiB token stream (idx[100277], u32 ids drawn from a Zipf law, an
#   end-of-text id every ~400 tokens) against cat of the same bytes: through
#   the same pipe, both ends on one core (taskset -c 0), on two cores, and
#   read from the file (goal: >= 0.8 of cat);
#   1 GB of JSON Lines against pskd-shingle reading it (goal: >= 0.5 of
#   pskd-shingle's rate);
#   one document of PSKD_BENCH_DOC_MB (default 512) MiB, read as it
#   passes, against the same bytes cut into documents of a few KB (the
#   JSON Lines rate), and its peak RSS (pskd-stats(1): a few MiB).
# Ratios are throughput pskd-stats / anchor (time of the anchor over time
# of pskd-stats, medians of hyperfine), and the same with CPU time (user
# and system of the whole command), steadier on a shared machine.  PSKD_BENCH_TOKENS (default
# 268435456, 1 GiB of u32) and PSKD_BENCH_JSONL_MB (default 1000) size the
# inputs; they stay in $PSKD_BENCH_DIR/stats for the next run.
set -eu
: "${PSKD_BENCH_DIR:?}"
py=/usr/bin/python3
n=${PSKD_BENCH_TOKENS:-268435456}
mb=${PSKD_BENCH_JSONL_MB:-1000}
d=$PSKD_BENCH_DIR/stats
mkdir -p "$d"
tok=$d/tokens-$n.psk.d
docs=$d/docs-$mb.jsonl

if [ ! -f "$tok" ]; then
	echo "making $n tokens in $tok"
	$py - "$tok" "$n" <<'PY'
import os, struct, sys
import numpy as np
path, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(1)
t = b"idx[100277]"
with open(path + ".tmp", "wb") as f:
    f.write(b"PSKD" + struct.pack("<HI", 1, len(t)) + t + struct.pack("<Q", n))
    for k in range(0, n, 1 << 24):
        m = min(1 << 24, n - k)
        a = (rng.zipf(1.1, m) - 1) % 100257
        a[rng.random(m) < 1 / 400] = 100257
        f.write(a.astype("<u4").tobytes())
os.rename(path + ".tmp", path)
PY
fi
if [ ! -f "$docs" ]; then
	echo "making $mb MB of JSON Lines in $docs"
	$py - "$d/part.jsonl" <<'PY'
import json, random, sys
r = random.Random(2026)
letters = "etaoinshrdlcumwfgypbvkjxqz"
words = ["".join(r.choice(letters) for _ in range(r.randint(1, 10)))
         for _ in range(30000)] + ["é", "naïve", "€uro", "日本語", "𝄞"]
size, i = 0, 0
with open(sys.argv[1], "w") as f:
    while size < 100_000_000:
        text = " ".join(r.choice(words) for _ in range(r.randint(20, 1500)))
        line = json.dumps({"id": "doc-%d" % i, "text": text,
                           "url": "https://example.org/%d" % i},
                          ensure_ascii=i % 2 == 0) + "\n"
        f.write(line)
        size += len(line.encode())
        i += 1
PY
	k=0
	: > "$docs.tmp"
	while [ $((k * 100)) -lt "$mb" ]; do
		cat "$d/part.jsonl" >> "$docs.tmp"
		k=$((k + 1))
	done
	rm "$d/part.jsonl"
	mv "$docs.tmp" "$docs"
fi
cat "$tok" "$docs" > /dev/null		# into the page cache

json=$d/hyperfine.json
hyperfine --style basic --runs 5 --warmup 1 --export-json "$json" \
    -n "cat | cat, one core" "taskset -c 0 sh -c 'cat $tok | cat > /dev/null'" \
    -n "cat | pskd-stats, one core" "taskset -c 0 sh -c 'cat $tok | pskd-stats > /dev/null'" \
    -n "cat | cat" "cat $tok | cat > /dev/null" \
    -n "cat | pskd-stats" "cat $tok | pskd-stats > /dev/null" \
    -n "cat file" "cat $tok > /dev/null" \
    -n "pskd-stats file" "pskd-stats $tok > /dev/null" \
    -n "pskd-shingle jsonl" "pskd-shingle $docs > /dev/null" \
    -n "pskd-stats jsonl" "pskd-stats $docs > /dev/null"
$py - "$json" "$tok" "$docs" <<'PY'
import json, os, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
tb, db = os.path.getsize(sys.argv[2]), os.path.getsize(sys.argv[3])
med = lambda k: r[k]["median"]
cpu = lambda k: r[k]["user"] + r[k]["system"]
for a, b, what in (("cat | cat, one core", "cat | pskd-stats, one core",
                    "token stream through a pipe, one core"),
                   ("cat | cat", "cat | pskd-stats",
                    "token stream through a pipe, two cores"),
                   ("cat file", "pskd-stats file",
                    "token stream read from the file")):
    print("%s: pskd-stats %.0f MB/s, cat %.0f MB/s; ratio %.2f (goal >= "
          "0.8); CPU time ratio %.2f" % (what, tb / med(b) / 1e6,
                                       tb / med(a) / 1e6, med(a) / med(b),
                                       cpu(a) / cpu(b)))
print("JSON Lines: pskd-stats %.0f MB/s, pskd-shingle %.0f MB/s; ratio %.2f "
      "(goal >= 0.5); CPU time ratio %.2f" % (
          db / med("pskd-stats jsonl") / 1e6,
          db / med("pskd-shingle jsonl") / 1e6,
          med("pskd-shingle jsonl") / med("pskd-stats jsonl"),
          cpu("pskd-shingle jsonl") / cpu("pskd-stats jsonl")))
PY

# One long document: the streaming reader's rate and its memory.
dmb=${PSKD_BENCH_DOC_MB:-512}
one=$d/one-$dmb.jsonl
if [ ! -f "$one" ]; then
	$py - "$one" "$dmb" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
unit = "the text of one document \\n with d\u00e9j\u00e0 vu ".encode() * 64
with open(path + ".tmp", "wb") as f:
    f.write(b'{"id": 1, "language": "en", "text": "')
    for _ in range((mb << 20) // len(unit)):
        f.write(unit)
    f.write(b'"}\n')
PY
	mv "$one.tmp" "$one"
fi
cat "$one" > /dev/null
json1=$d/hyperfine-one.json
hyperfine --style basic --runs 3 --warmup 1 --export-json "$json1" \
    -n "one document" "pskd-stats $one > /dev/null"
/usr/bin/time -f %M -o "$d/rss" pskd-stats "$one" > /dev/null
$py - "$json1" "$json" "$one" "$docs" "$d/rss" <<'PY'
import json, os, sys
one = json.load(open(sys.argv[1]))["results"][0]["median"]
many = {x["command"]: x for x in json.load(open(sys.argv[2]))["results"]}
many = many["pskd-stats jsonl"]["median"]
ob, db = os.path.getsize(sys.argv[3]), os.path.getsize(sys.argv[4])
rss = int(open(sys.argv[5]).read().split()[-1]) / 1024
print("one document of %d MiB: pskd-stats %.0f MB/s, against %.0f MB/s on "
      "documents of a few KB; ratio %.2f; peak RSS %.1f MiB (%.3f of the "
      "document)" % (ob >> 20, ob / one / 1e6, db / many / 1e6,
                     (ob / one) / (db / many), rss, rss / (ob / 2**20)))
PY
