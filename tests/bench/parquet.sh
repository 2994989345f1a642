#!/bin/sh
# parquet.sh - pskd-unparquet against DuckDB's own Parquet to JSON,
#   COPY (SELECT text FROM 'f.parquet') TO '/dev/stdout' (FORMAT json)
# (the npm build, one thread), on FineWeb-like shards of 250 MB of text
# compressed with SNAPPY and with ZSTD, side by side in one run
# (hyperfine), as throughput ratios; then the peak RSS of each.  The
# shards are made once by DuckDB in $PSKD_BENCH_DIR/parquet.
set -eu
d=$PSKD_BENCH_DIR/parquet
mkdir -p "$d"
export NODE_PATH="${NODE_PATH:-$PSKD_TOP/.deps/node_modules}"
if ! node -e 'require("@duckdb/node-api")' 2>/dev/null; then
	echo "skip: @duckdb/node-api not installed (make deps)"
	exit 0
fi
if [ ! -f "$d/zstd.parquet" ]; then
	echo "making FineWeb-like shards of 250 MB of text (once)..."
	node - "$d" <<'JS'
const { DuckDBInstance } = require('@duckdb/node-api');
const d = process.argv[2];
(async () => {
	const db = await DuckDBInstance.create(':memory:', { threads: '2' });
	const c = await db.connect();
	// Words of 2-10 letters, documents of 50-1500 of them, some UTF-8.
	await c.run(`CREATE TABLE w AS SELECT i, CASE WHEN i % 97 = 0 THEN 'café'
	    WHEN i % 89 = 0 THEN 'naïve' ELSE substr(md5(i::VARCHAR),
	    1, 2 + (i % 9)::INTEGER) END AS word FROM range(20000) r(i)`);
	const words = (await c.runAndReadAll('SELECT word FROM w ORDER BY i'))
	    .getRows().map((r) => r[0]);
	await c.run(`CREATE TABLE src (text VARCHAR, id VARCHAR, url VARCHAR,
	    language VARCHAR, language_score DOUBLE, token_count BIGINT)`);
	let x = 2463534242, size = 0, n = 0;
	const rnd = () => {		/* xorshift32 */
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		return (x >>>= 0);
	};
	const app = await c.createAppender('src');
	while (size < 250e6) {
		const k = 50 + rnd() % 1450, parts = [];
		for (let j = 0; j < k; j++)
			parts.push(words[rnd() % words.length]);
		const text = parts.join(' ') + '.';
		app.appendVarchar(text);
		app.appendVarchar('<urn:uuid:' + n + '>');
		app.appendVarchar('https://example.org/' + n);
		app.appendVarchar('en');
		app.appendDouble(0.5 + (n % 500) / 1000);
		app.appendBigInt(BigInt(k));
		app.endRow();
		size += text.length;
		n++;
	}
	app.closeSync();
	for (const codec of ['snappy', 'zstd'])
		await c.run(`COPY src TO '${d}/${codec}.tmp' (FORMAT parquet,
		    COMPRESSION ${codec})`);
	console.log(n + ' documents, ' + size + ' bytes of text');
})().catch((e) => { console.error(e); process.exit(1); });
JS
	mv "$d/snappy.tmp" "$d/snappy.parquet"
	mv "$d/zstd.tmp" "$d/zstd.parquet"
fi
cat > "$d/duck.js" <<'JS'
const { DuckDBInstance } = require('@duckdb/node-api');
(async () => {
	const db = await DuckDBInstance.create(':memory:', { threads: '1' });
	const c = await db.connect();
	await c.run(`COPY (SELECT text FROM '${process.argv[2]}') TO '/dev/stdout'
	    (FORMAT json)`);
})();
JS
for codec in snappy zstd; do
	f=$d/$codec.parquet
	echo "$codec: $(wc -c < "$f") bytes, $(pskd-unparquet -c text "$f" | wc -c) bytes of JSON Lines"
	hyperfine --warmup 1 --runs 5 --export-json "$d/$codec.json" \
	    "pskd-unparquet -c text $f > /dev/null" \
	    "node $d/duck.js $f > /dev/null"
	for cmd in "pskd-unparquet -c text $f" "node $d/duck.js $f"; do
		/usr/bin/time -f "%M" -o "$d/rss" $cmd > /dev/null
		echo "${cmd%% *}: peak RSS $(cat "$d/rss") KiB"
	done
done
python3 - "$d/snappy.json" "$d/zstd.json" <<'PY'
import json, sys
for path in sys.argv[1:]:
    r = json.load(open(path))["results"]
    a, b = r[0]["min"], r[1]["min"]
    ca = r[0]["user"] + r[0]["system"]
    cb = r[1]["user"] + r[1]["system"]
    print("%s: pskd-unparquet/DuckDB throughput: %.2f (CPU time: %.2f)" % (
        path.rsplit("/", 1)[1][:-5], b / a, cb / ca))
PY
