#!/bin/sh
# get.sh - pskd-get against curl -o, fetching a 1 GiB file from nginx on
# loopback, side by side in one run (hyperfine); and the rate at which a
# resumed download re-hashes its prefix, against openssl dgst -sha256.
# The file is made once in $PSKD_BENCH_DIR/get and reused.
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
hyperfine --warmup 1 --runs 5 --export-json "$d/get.json" \
    --prepare "rm -rf $d/out $d/curl; mkdir -p $d/curl" \
    "pskd-get -q -d $d/out $d/urls.txt" \
    "curl -s -o $d/curl/big.bin $url" \
    "sh -c 'curl -s -o $d/curl/big.bin $url && sync $d/curl/big.bin'"

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
python3 - "$d/get.json" "$d/resume.json" "$size" <<'PY'
import json, sys
size = int(sys.argv[3])
r = json.load(open(sys.argv[1]))["results"]
g, c, cs = (x["min"] for x in r)
print("pskd-get %.0f MB/s, curl -o %.0f MB/s, curl -o + sync %.0f MB/s "
      "(best of the runs)" % (size / g / 1e6, size / c / 1e6, size / cs / 1e6))
print("pskd-get/curl -o throughput: %.2f" % (c / g))
print("pskd-get/(curl -o + sync) throughput: %.2f" % (cs / g))
cpu = [x["user"] + x["system"] for x in r]
print("CPU time: pskd-get %.2f s, curl -o %.2f s (pskd-get also hashes)" %
      (cpu[0], cpu[1]))
r = json.load(open(sys.argv[2]))["results"]
g, o = r[0]["min"], r[1]["min"]
cg = r[0]["user"] + r[0]["system"]
print("resume re-hash: %.2f GB/s (%.2f GB/s of CPU time); openssl dgst "
      "-sha256 %.2f GB/s; ratio %.2f" % (size / g / 1e9, size / cg / 1e9,
                                         size / o / 1e9, o / g))
PY
