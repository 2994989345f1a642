#!/bin/sh
# mix.sh - pskd-mix's order and pskd.py's mixed loader against their
# anchors, side by side in one run:
#   the order, ns per position (source and sample, two and four sources),
#   beside pskd-shuffle's permutation, ns per index (goal <= 50 ns);
#   pskd-mix writing 2 KiB windows from three files through a pipe,
#   against pskd-shuffle of one file of the same windows;
#   pskd.loader over a PskdMix of three window files (0.6, 0.3, 0.1)
#   against a plain torch ConcatDataset + WeightedRandomSampler over
#   np.memmap datasets of the same files, 0 and 2 workers, batches of 32
#   (goal: >= 2x the samples per second, from the first batch on), and
#   with workers what DataLoader alone passes of batches of that shape.
# PSKD_BENCH_MIX_WINDOWS (default 100000 a file) sizes the files, which
# stay in $PSKD_BENCH_DIR for the next run.
set -eu
: "${PSKD_BENCH_DIR:?}" "${PSKD_TOP:?}"
py=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1
w=${PSKD_BENCH_MIX_WINDOWS:-100000}
dir=$PSKD_BENCH_DIR/mix-$w
mkdir -p "$dir"

make -s -C "$PSKD_TOP" build/tests/test-mix build/tests/test-perm \
    >/dev/null 2>&1 || true
for n in 10000000 100000000; do
	printf 'pskd-shuffle permutation: '; "$PSKD_TOP/build/tests/test-perm" bench $n
	printf 'pskd-mix order: '; "$PSKD_TOP/build/tests/test-mix" bench $n
done

for s in a b c; do
	f=$dir/$s.psk.d
	[ -f "$f" ] && continue
	echo "making $w windows of 256 tokens in $f"
	$py - "$f" "$w" <<'PY'
import os, struct, sys
import numpy as np
path, w = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(hash(path) % 2**32)
t = b"(idx[100277][seq: 256], idx[100277][seq: 256])"
tok = rng.integers(0, 100277, w * 256 + 1, dtype=np.uint32)
rows = np.lib.stride_tricks.sliding_window_view(tok, 257)[::256]
with open(path + ".tmp", "wb") as f:
    f.write(b"PSKD" + struct.pack("<HI", 1, len(t)) + t + struct.pack("<Q", w))
    for k in range(0, w, 65536):
        r = rows[k:k + 65536]
        f.write(np.concatenate([r[:, :256], r[:, 1:]], axis=1)
                .astype("<u4").tobytes())
os.rename(path + ".tmp", path)
PY
done
cat "$dir"/*.psk.d > /dev/null

json=$dir/hyperfine.json
hyperfine --style basic --runs 7 --warmup 1 --export-json "$json" \
    -n "pskd-shuffle" "pskd-shuffle -s 1 $dir/a.psk.d | cat > /dev/null" \
    -n "pskd-mix" "pskd-mix -s 1 -L $w $dir/a.psk.d:0.6 $dir/b.psk.d:0.3 $dir/c.psk.d:0.1 | cat > /dev/null"
$py - "$json" "$w" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
w = int(sys.argv[2])
for k in ("pskd-shuffle", "pskd-mix"):
    print("%s: %.0f windows/s (fastest of 7 runs: %.3f s for %d)"
          % (k, w / r[k]["min"], r[k]["min"], w))
print("pskd-mix/pskd-shuffle rate: %.2f" % (r["pskd-shuffle"]["min"] /
      r["pskd-mix"]["min"]))
PY

PYTHONPATH=$PSKD_TOP/src/python $py - "$dir" <<'PY'
import os, sys, time
import numpy as np
import torch
import pskd
torch.set_num_threads(1)
d, B, steps = sys.argv[1], 32, 300
paths = [os.path.join(d, s + ".psk.d") for s in "abc"]
weights = [0.6, 0.3, 0.1]

class Windows(torch.utils.data.Dataset):
    """One file's windows, one at a time from an np.memmap."""
    def __init__(self, path):
        h = pskd.read_header(path)
        self.m = np.memmap(path, dtype="<u4", mode="r", offset=h.size,
                           shape=(h.count, 512))
    def __len__(self):
        return len(self.m)
    def __getitem__(self, i):
        row = self.m[i]
        return (torch.from_numpy(row[:256].astype(np.int64)),
                torch.from_numpy(row[256:].astype(np.int64)))

class Empty(torch.utils.data.Dataset):
    """A batch of windows of nothing: two new (B, 256) LongTensors an item,
    what DataLoader's own passing of a batch between processes costs."""
    def __len__(self):
        return 1 << 30
    def __getitem__(self, i):
        return (torch.empty((B, 256), dtype=torch.int64),
                torch.empty((B, 256), dtype=torch.int64))

def rate(dl):
    """Samples a second from the first batch on (the workers started)."""
    it = iter(dl)
    next(it)
    t = time.perf_counter()
    k = 0
    for x, y in it:
        k += 1
        if k == steps:
            break
    return k * B / (time.perf_counter() - t)

res = {}
for workers in (0, 2):
    for rnd in range(3):
        parts = [Windows(p) for p in paths]
        cat = torch.utils.data.ConcatDataset(parts)
        per = np.concatenate([np.full(len(p), w / len(p))
                              for p, w in zip(parts, weights)])
        g = torch.Generator().manual_seed(rnd)
        plain = torch.utils.data.DataLoader(
            cat, batch_size=B, num_workers=workers,
            sampler=torch.utils.data.WeightedRandomSampler(
                per, num_samples=len(cat), generator=g))
        mix = pskd.PskdMix(list(zip(paths, weights)))
        ours = pskd.loader(mix, B, seed=rnd, num_workers=workers)
        res.setdefault(("plain", workers), []).append(rate(plain))
        res.setdefault(("pskd", workers), []).append(rate(ours))
        if workers:
            res.setdefault(("floor", workers), []).append(rate(
                torch.utils.data.DataLoader(Empty(), batch_size=None,
                                            num_workers=workers)))
for workers in (0, 2):
    p, q = max(res[("plain", workers)]), max(res[("pskd", workers)])
    print("mixed loader, %d workers: ConcatDataset + WeightedRandomSampler "
          "%.0f samples/s, pskd.PskdMix %.0f samples/s; pskd/plain: %.2f "
          "(goal >= 2)" % (workers, p, q, q / p))
    if workers:
        f = max(res[("floor", workers)])
        print("  DataLoader passing empty batches of the same shape from %d "
              "workers: %.0f samples/s, %.2f x plain" % (workers, f, f / p))
PY
