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
# user + system of the whole process; for the extractors, each is run on
# the pages repeated twice over (once few times, once many) and the rate
# is that of the difference, so no start-up (Python's, node's, the
# imports) counts against anyone.
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
px1=$(cpu sh -c "head -c $(($(wc -c < "$d/pages.warc") / 10)) '$d/pages.warc' | pskd-unwarc -q | wc -l")
lx=$(cpu sh -c "/usr/bin/python3 '$top/tests/t/extract-lxml.py' 8 < '$d/pages.json'")
lx1=$(cpu sh -c "/usr/bin/python3 '$top/tests/t/extract-lxml.py' 2 < '$d/pages.json'")
js=$(cpu sh -c "node '$top/tests/t/extract-readability.js' 20 < '$d/pages.json'")
js1=$(cpu sh -c "node '$top/tests/t/extract-readability.js' 5 < '$d/pages.json'")
echo "pskd-unwarc:      $px1 / $px (CPU seconds, pages)"
echo "readability-lxml: $lx1 / $lx"
echo "Readability.js:   $js1 / $js"
f1=$(PSKD_TOP=$top python3 "$top/tests/t/extract-f1" | grep '^# \(pskd\|readability\)')
echo "$f1"
python3 - "$ours" "$peer" "$px1" "$px" "$lx1" "$lx" "$js1" "$js" <<'PY'
import sys
rate = lambda s: float(s.split()[1]) / float(s.split()[0])
# The rate of the difference of two runs: the work without the start-up.
def slope(a, b):
    (ta, na), (tb, nb) = map(float, a.split()), map(float, b.split())
    return (nb - na) / (tb - ta)
print("records per CPU-second: pskd-unwarc %.0f, warcio.js %.0f: ratio %.1f (want >= 5)" % (
    rate(sys.argv[1]), rate(sys.argv[2]), rate(sys.argv[1]) / rate(sys.argv[2])))
px = slope(sys.argv[3], sys.argv[4])
lx = slope(sys.argv[5], sys.argv[6])
js = slope(sys.argv[7], sys.argv[8])
print("pages per CPU-second: pskd-unwarc %.0f, readability-lxml %.1f, Readability.js %.1f" % (px, lx, js))
print("pskd-unwarc/readability-lxml: %.1f (want >= 20); pskd-unwarc/Readability.js: %.1f" % (px / lx, px / js))
PY
