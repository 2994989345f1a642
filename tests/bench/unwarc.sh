#!/bin/sh
# unwarc.sh - pskd-unwarc against its peers, side by side in one run:
#   records: reading every record of a gzipped WARC (a member per record,
#     as Common Crawl's) against warcio.js (npm warcio) iterating the same
#     file, as records per CPU-second;
#   extraction: the main text of the pages of tests/data/extract against
#     readability-lxml (Debian python3-readability) and Readability.js on
#     linkedom, as pages per CPU-second, with the F1 of each on those pages
#     (tests/t/extract-f1).
# Inputs are made once in $PSKD_BENCH_DIR/unwarc and reused.  CPU time is
# user + system of the whole process (the peers' start-up included, kept
# small beside their work by repeating the pages).
set -eu
top=$PSKD_TOP
d=$PSKD_BENCH_DIR/unwarc
mkdir -p "$d"
w=$top/tests/data/warc
if [ ! -f "$d/big.warc.gz" ]; then
	echo "making a gzipped WARC of 1500 copies of the fixtures (once)..."
	for i in $(seq 1500); do
		cat "$w/made.warc.gz" "$w/cc-whirlwind.warc.gz" "$w/warcio-example.warc.gz" \
		    "$w/warcio-post-test.warc.gz"
	done > "$d/big.warc.gz.tmp"
	mv "$d/big.warc.gz.tmp" "$d/big.warc.gz"
fi
cat > "$d/records.js" <<'JS'
const fs = require("fs"), { WARCParser } = require("warcio");
(async () => {
	let n = 0;
	for await (const r of WARCParser.iterRecords(fs.createReadStream(process.argv[2]))) {
		await r.skipFully();
		n++;
	}
	console.log(n);
})();
JS
cpu() {	# command... -> "seconds records" of its user+system time
	/usr/bin/time -f "%U %S" -o "$d/time" "$@" > "$d/out"
	echo "$(awk '{ print $1 + $2 }' "$d/time") $(tail -n 1 "$d/out")"
}
echo "records: $(wc -c < "$d/big.warc.gz") bytes of gzipped WARC"
ours=$(cpu sh -c "pskd-unwarc -q -a -t none '$d/big.warc.gz' | wc -l")
peer=$(cpu node "$d/records.js" "$d/big.warc.gz")
echo "pskd-unwarc: $ours (CPU seconds, records)"
echo "warcio.js:   $peer"

# Extraction: the pages as response records, repeated.
python3 - "$top" "$d" <<'PY'
import gzip, json, os, re, sys
top, d = sys.argv[1], sys.argv[2]
pd = top + "/tests/data/extract/pages"
pages, utf8 = [], []
for f in sorted(os.listdir(pd)):
    if f.endswith(".html.gz"):
        raw = gzip.open(pd + "/" + f).read()
        m = re.search(rb'<meta charset="([a-z0-9_-]+)">', raw[:4096])
        pages.append(raw)
        utf8.append(raw.decode(m.group(1).decode() if m else "utf-8"))
with open(d + "/pages.warc", "wb") as out:
    for k in range(100):
        for i, raw in enumerate(pages):
            http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + raw
            out.write(("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://p.test/%d/%d\r\n"
                       "Content-Type: application/http; msgtype=response\r\n"
                       "Content-Length: %d\r\n\r\n" % (k, i, len(http))).encode() + http + b"\r\n\r\n")
json.dump(utf8, open(d + "/pages.json", "w"))
PY
echo "extraction: 22 pages, $(($(wc -c < "$d/pages.warc") / 100)) bytes"
px=$(cpu sh -c "pskd-unwarc -q '$d/pages.warc' | wc -l")
lx=$(cpu sh -c "/usr/bin/python3 '$top/tests/t/extract-lxml.py' 3 < '$d/pages.json'")
js=$(cpu sh -c "node '$top/tests/t/extract-readability.js' 10 < '$d/pages.json'")
echo "pskd-unwarc:      $px (CPU seconds, pages)"
echo "readability-lxml: $lx"
echo "Readability.js:   $js"
f1=$(PSKD_TOP=$top python3 "$top/tests/t/extract-f1" | grep '^# \(pskd\|readability\)')
echo "$f1"
python3 - "$ours" "$peer" "$px" "$lx" "$js" <<'PY'
import sys
rate = lambda s: float(s.split()[1]) / float(s.split()[0])
print("records per CPU-second: pskd-unwarc %.0f, warcio.js %.0f: ratio %.1f (want >= 5)" % (
    rate(sys.argv[1]), rate(sys.argv[2]), rate(sys.argv[1]) / rate(sys.argv[2])))
print("pages per CPU-second: pskd-unwarc %.0f, readability-lxml %.1f, Readability.js %.1f" % (
    rate(sys.argv[3]), rate(sys.argv[4]), rate(sys.argv[5])))
print("pskd-unwarc/readability-lxml: %.1f (want >= 20); pskd-unwarc/Readability.js: %.1f" % (
    rate(sys.argv[3]) / rate(sys.argv[4]), rate(sys.argv[3]) / rate(sys.argv[5])))
PY
