#!/bin/sh
# batches.sh - pskd-window, pskd-shuffle and the Python reader against their
# anchors, side by side in one run:
#   pskd-window -t 1024 and pskd-shuffle (-B 32) of a 1 GiB token stream
#   (idx[100277], u32 ids) and its 2 GiB of windows, against cat of the
#   same bytes through the same pipe (goal: >= 0.75 of cat);
#   the permutation in ns per index, in C and in numpy (goal <= 50 ns in C);
#   PskdDataset + loader() against a plain np.memmap Dataset + DataLoader
#   (goal: >= 2x the samples per second).
# PSKD_BENCH_TOKENS (default 268435456 = 1 GiB of u32) sizes the input;
# the files stay in $PSKD_BENCH_DIR for the next run.
set -eu
: "${PSKD_BENCH_DIR:?}" "${PSKD_TOP:?}"
py=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1
n=${PSKD_BENCH_TOKENS:-268435456}
dir=$PSKD_BENCH_DIR/batches-$n
mkdir -p "$dir"
tok=$dir/tokens.psk.d
train=$dir/train.psk.d

if [ ! -f "$tok" ]; then
	echo "making $n random tokens in $tok"
	$py - "$tok" "$n" <<'PY'
import struct, sys
import numpy as np
path, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(1)
t = b"idx[100277]"
with open(path + ".tmp", "wb") as f:
    f.write(b"PSKD" + struct.pack("<HI", 1, len(t)) + t + struct.pack("<Q", n))
    for k in range(0, n, 1 << 24):
        m = min(1 << 24, n - k)
        f.write(rng.integers(0, 100277, m, dtype=np.uint32).astype("<u4").tobytes())
import os
os.rename(path + ".tmp", path)
PY
fi
[ -f "$train" ] || pskd-window -t 1024 "$tok" > "$train"
cat "$tok" "$train" > /dev/null		# into the page cache

json=$dir/hyperfine.json
hyperfine --style basic --runs 3 --warmup 1 --export-json "$json" \
    -n "cat tokens" "cat $tok | cat > /dev/null" \
    -n "pskd-window" "pskd-window -t 1024 $tok | cat > /dev/null" \
    -n "cat windows" "cat $train | cat > /dev/null" \
    -n "pskd-shuffle" "pskd-shuffle -s 1 $train | cat > /dev/null" \
    -n "pskd-shuffle -B 32" "pskd-shuffle -s 1 -B 32 $train | cat > /dev/null"
$py - "$json" "$tok" "$train" <<'PY'
import json, os, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
tb, wb = os.path.getsize(sys.argv[2]), os.path.getsize(sys.argv[3])
def med(k):
    return r[k]["median"]
print("pskd-window: %.0f MB/s in, %.0f MB/s out" % (tb / med("pskd-window") / 1e6,
      wb / med("pskd-window") / 1e6))
print("pskd-window/cat of its output bytes throughput: %.2f" %
      (med("cat windows") / med("pskd-window")))
print("pskd-window/cat of its input bytes (time ratio): %.2f" %
      (med("cat tokens") / med("pskd-window")))
for k in ("pskd-shuffle", "pskd-shuffle -B 32"):
    print("%s: %.0f MB/s; %s/cat throughput: %.2f" % (k, wb / med(k) / 1e6, k,
          med("cat windows") / med(k)))
PY

# The permutation, ns per index (process CPU time).
make -s -C "$PSKD_TOP" build/tests/test-perm >/dev/null 2>&1 || true
tp=$PSKD_TOP/build/tests/test-perm
if [ -x "$tp" ]; then
	for m in 1048576 10000000 16777217 100000000; do
		printf 'C permutation: '; "$tp" bench $m
	done
fi
PSKD_NO_TORCH=1 PYTHONPATH=$PSKD_TOP/src/python $py - <<'PY'
import time
import numpy as np
import pskd
for n in (1048576, 10000000, 16777217):
    t = time.process_time()
    pskd.permutation(n, 42, 1)
    dt = time.process_time() - t
    print("numpy permutation: %.1f ns/index (n=%d)" % (dt / n * 1e9, n))
t = time.process_time()
np.random.default_rng(42).permutation(10**7)
print("(numpy Generator.permutation, materialised: %.1f ns/index, n=10^7)"
      % ((time.process_time() - t) / 1e7 * 1e9))
PY

# PskdDataset + loader() against a plain np.memmap Dataset + DataLoader.
PYTHONPATH=$PSKD_TOP/src/python $py - "$train" <<'PY'
import sys, time
import numpy as np
import torch
import pskd
torch.set_num_threads(1)
path, B, steps = sys.argv[1], 32, 400
h = pskd.read_header(path)

class Plain(torch.utils.data.Dataset):
    def __init__(self):
        self.m = np.memmap(path, dtype="<u4", mode="r", offset=h.size,
                           shape=(h.count, 2048))
    def __len__(self):
        return h.count
    def __getitem__(self, i):
        row = self.m[i]
        return (torch.from_numpy(row[:1024].astype(np.int64)),
                torch.from_numpy(row[1024:].astype(np.int64)))

def rate(dl):
    t = time.perf_counter()
    k = 0
    for x, y in dl:
        k += 1
        if k == steps:
            break
    return k * B / (time.perf_counter() - t)

res = {}
for w in (0, 2):
    for rnd in range(2):
        g = torch.Generator().manual_seed(rnd)
        plain = torch.utils.data.DataLoader(Plain(), batch_size=B,
            sampler=torch.utils.data.RandomSampler(range(h.count), generator=g),
            num_workers=w)
        ours = pskd.loader(pskd.PskdDataset(path), B, seed=rnd, num_workers=w)
        res.setdefault(("plain", w), []).append(rate(plain))
        res.setdefault(("pskd", w), []).append(rate(ours))
for w in (0, 2):
    p, q = max(res[("plain", w)]), max(res[("pskd", w)])
    print("DataLoader, %d workers: plain memmap %.0f samples/s, PskdDataset "
          "%.0f samples/s; PskdDataset/plain: %.2f" % (w, p, q, q / p))
PY
