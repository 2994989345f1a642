#!/bin/sh
# get.sh - pskd-get against curl -o, and against curl -o followed by a sync
# of the file (pskd-get syncs what it vouches for), fetching a 1 GiB file
# from nginx on loopback; and the rate at which a resumed download
# re-hashes its prefix, against openssl dgst -sha256.  The three downloads
# run in turns, round after round (GET_ROUNDS, default 7), so that a busy
# machine slows each alike; the ratios are of the medians and of the best
# runs.  The file is made once in $PSKD_BENCH_DIR/get and reused.
# GET_BASELINE=/path/to/an/older/pskd-get runs that one too, in the same
# rounds, for before/after ratios.  The goal (issue 30): pskd-get >= 0.9x
# curl -o.
set -eu
top=${PSKD_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
d=$PSKD_BENCH_DIR/get
mkdir -p "$d/www" "$d/nginx"
size=$((1 << 30))
if [ ! -f "$d/www/big.bin" ] || [ "$(wc -c < "$d/www/big.bin")" != $size ]; then
	echo "making a 1 GiB file (once)..."
	head -c $size /dev/urandom > "$d/www/big.bin.tmp"
	mv "$d/www/big.bin.tmp" "$d/www/big.bin"
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
user=
[ "$(id -u)" = 0 ] && user="user root root;"
sed -e "s|@ROOT@|$d/www|" -e "s|@PORT@|$port|" -e "s|@PREFIX@|$d/nginx|" \
    -e "s|@USER@|$user|" "$top/tests/get/nginx.conf.in" > "$d/nginx/nginx.conf"
nginx -p "$d/nginx" -c "$d/nginx/nginx.conf" 2>/dev/null &
npid=$!
trap 'kill $npid 2>/dev/null; wait $npid 2>/dev/null; rm -rf "$d/out" "$d/curl"' EXIT INT TERM
i=0
until curl -sf -o /dev/null -r 0-0 "http://127.0.0.1:$port/big.bin"; do
	i=$((i + 1)); [ $i -lt 100 ] || { echo "nginx did not start"; exit 1; }
	sleep 0.1
done
url=http://127.0.0.1:$port/big.bin
echo "$url" > "$d/urls.txt"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$d" "$url" "$size" "${GET_ROUNDS:-7}" "${GET_BASELINE:-}" <<'PY'
import os, resource, shutil, statistics, subprocess, sys, time
d, url, size, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
baseline = sys.argv[5]
runs = {
    "pskd-get": ["pskd-get", "-q", "-d", d + "/out", d + "/urls.txt"],
    "curl -o": ["curl", "-s", "-o", d + "/curl/big.bin", url],
    "curl -o + sync": ["sh", "-c", 'curl -s -o "$1" "$2" && sync "$1"',
                       "sh", d + "/curl/big.bin", url],
}
if baseline:
    runs["baseline"] = [baseline, "-q", "-d", d + "/out", d + "/urls.txt"]
wall = {k: [] for k in runs}
cpu = {k: [] for k in runs}
for r in range(rounds + 1):          # round 0 warms the caches up
    order = list(runs)
    order = order[r % len(order):] + order[:r % len(order)]
    for k in order:
        shutil.rmtree(d + "/out", ignore_errors=True)
        shutil.rmtree(d + "/curl", ignore_errors=True)
        os.makedirs(d + "/curl")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        subprocess.run(runs[k], check=True)
        t = time.monotonic() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r > 0:
            wall[k].append(t)
            cpu[k].append(after.ru_utime + after.ru_stime -
                          before.ru_utime - before.ru_stime)
med = {k: statistics.median(v) for k, v in wall.items()}
best = {k: min(v) for k, v in wall.items()}
for k in runs:
    print("%-15s median %5.2f s (%4.0f MB/s), best %5.2f s, CPU %4.2f s" %
          (k, med[k], size / med[k] / 1e6, best[k], statistics.median(cpu[k])))
for g in ["pskd-get"] + (["baseline"] if baseline else []):
    print("%s/curl -o throughput: %.2f (medians), %.2f (best runs); goal "
          ">= 0.90" % (g, med["curl -o"] / med[g], best["curl -o"] / best[g]))
    print("%s/(curl -o + sync) throughput: %.2f (medians), %.2f (best "
          "runs)" % (g, med["curl -o + sync"] / med[g],
                     best["curl -o + sync"] / best[g]))
print("CPU a GiB (medians): pskd-get %.2f s with its curl, curl -o %.2f s"
      % (statistics.median(cpu["pskd-get"]) * (1 << 30) / size,
         statistics.median(cpu["curl -o"]) * (1 << 30) / size))
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Resume: a partial download whose checkpoint vouches for all 1 GiB, so
# the run re-hashes it (from the page cache), renames it and is done.
rm -rf "$d/out"
pskd-get -q -d "$d/out" "$d/urls.txt"
sha=$(openssl dgst -sha256 -r "$d/out/big.bin" | cut -c1-64)
etag=$(sed -n 's/.*"etag": \("[^,]*"\), "status.*/\1/p' "$d/out/manifest.json")
cat > "$d/prepare.sh" <<PREP
[ -f "$d/out/big.bin" ] && mv "$d/out/big.bin" "$d/out/big.bin.partial"
printf '%s\n' '{"version": 1, "url": "$url", "verified_bytes": $size, "expected_size": $size, "sha256": "$sha", "etag": $etag, "last_modified": null}' > "$d/out/big.bin.partial.json"
PREP
hyperfine --warmup 1 --runs 5 --export-json "$d/resume.json" \
    --prepare "sh $d/prepare.sh" \
    "pskd-get -q -d $d/out $d/urls.txt" \
    "openssl dgst -sha256 $d/out/big.bin.partial"
sh "$d/prepare.sh"
pskd-get -q -d "$d/out" "$d/urls.txt"
pskd-get --verify -d "$d/out"
python3 - "$d/resume.json" "$size" <<'PY'
import json, sys
size = int(sys.argv[2])
r = json.load(open(sys.argv[1]))["results"]
g, o = r[0]["min"], r[1]["min"]
cg = r[0]["user"] + r[0]["system"]
co = r[1]["user"] + r[1]["system"]
print("resume re-hash: %.2f GB/s (%.2f GB/s of CPU time); openssl dgst "
      "-sha256 %.2f GB/s; ratio %.2f" % (size / g / 1e9, size / cg / 1e9,
                                         size / o / 1e9, o / g))
# The floor of pskd-get's CPU: the SHA-256 of every byte it keeps.
print("SHA-256 of 1 GiB (openssl dgst, page cache): %.2f s of CPU" %
      (co * (1 << 30) / size))
PY
