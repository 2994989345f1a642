#!/bin/sh
# tok.sh - pskd-tok against the npm tokenizers, side by side in one run, on
# >= 50 MB of this machine's man pages and docs (tests/t/tok_corpus.py,
# repeated if the machine has less; kept in $PSKD_BENCH_DIR): MB/s and
# tokens/s for cl100k_base and o200k_base, one core each (taskset), and a
# check that all give the same ids.
#   pskd-tok                        this, whole run: start, vocabulary, I/O
#   tiktoken-rs-node (native)       encode() alone, after loading
#   tiktoken (WASM, OpenAI's core)  encode_ordinary() alone, after loading
# The npm timings leave out node's start and the vocabulary load, which
# favours them.  Ratios are pskd-tok's throughput over theirs: for its
# whole run, and for the run less its start (an empty input, best of 3),
# like for like with the npm timings.
set -u
top=${PSKD_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
dir=${PSKD_BENCH_DIR:-/tmp/pskd-bench}/tok
mkdir -p "$dir"
export PSKD_VOCAB_DIR="$top/vocab"
NODE_PATH=${NODE_PATH:-$top/.deps/node_modules}
export NODE_PATH
pin=
command -v taskset > /dev/null && pin="taskset -c 0"

corpus=$dir/corpus.txt
if [ ! -s "$corpus" ]; then
	echo "tok: building the corpus (once) in $dir"
	python3 "$top/tests/t/tok_corpus.py" 60000000 "$dir/corpus.jsonl" 400 ||
	    exit 1
	python3 - "$dir/corpus.jsonl" "$corpus.tmp" <<'EOF' || exit 1
import json, sys
text = "".join(json.loads(l)["text"] for l in open(sys.argv[1]))
data = text.encode()
out = data
while len(out) < 50_000_000:
    out += data
open(sys.argv[2], "wb").write(out)
EOF
	mv "$corpus.tmp" "$corpus"
fi
size=$(wc -c < "$corpus")
echo "tok: corpus $size bytes ($(( size / 1000000 )) MB)"

cat > "$dir/npm.js" <<'EOF'
// node npm.js TOOL ENCODING CORPUS OUT: encode, print "seconds tokens",
// write the ids (u32 LE) to OUT.
const fs = require('fs');
const [tool, name, path, out] = process.argv.slice(2);
const text = fs.readFileSync(path, 'utf8');
let encode;
if (tool === 'rs') {
  const enc = require('tiktoken-rs-node-linux-x64-gnu').getEncoding(name);
  encode = t => enc.encode(t);
} else {
  const enc = require('tiktoken').get_encoding(name);
  encode = t => enc.encode_ordinary(t);
}
const t0 = process.hrtime.bigint();
const ids = Uint32Array.from(encode(text));
const s = Number(process.hrtime.bigint() - t0) / 1e9;
fs.writeFileSync(out, Buffer.from(ids.buffer));
console.log(s.toFixed(3), ids.length);
EOF

have_rs=0 have_wasm=0
if ! command -v node > /dev/null; then
	echo "tok: node missing: no npm rows"
else
	if node -e "require('tiktoken-rs-node-linux-x64-gnu')" 2>/dev/null; then
		have_rs=1
	else
		echo "tok: tiktoken-rs-node-linux-x64-gnu not installed: no row"
	fi
	node -e "require('tiktoken')" 2>/dev/null && have_wasm=1 ||
	    echo "tok: tiktoken not installed: no row"
fi

now() { date +%s.%N; }
# Run a command; its wall time in seconds goes to t.
timed() {
	t0=$(now)
	"$@" || return 1
	t=$(echo "$t0 $(now)" | awk '{ printf "%.3f", $2 - $1 }')
}
# The smaller of two times; the second may be empty.
faster() { echo "$1 ${2:-$1}" | awk '{ print ($1 < $2) ? $1 : $2 }'; }
rate() { echo "$1 $2" | awk '{ printf "%.1f", $1 / $2 / 1e6 }'; }

# Compare the ids of a .psk.d token stream with u32 LE ids.
same_ids() {	# psk u32file
	python3 - "$1" "$2" <<'EOF'
import sys, struct
a = open(sys.argv[1], "rb").read()
tl = struct.unpack("<I", a[6:10])[0]
body = a[10 + tl + 8:]
b = open(sys.argv[2], "rb").read()
sys.exit(0 if body == b else 1)
EOF
}

status=0
for enc in cl100k_base o200k_base; do
	best=
	# pskd-tok three times, around the npm runs: the best of them.
	run_pskd() {
		timed $pin pskd-tok -q -r --no-eot -E $enc < "$corpus" \
		    > "$dir/pskd.psk" || return 1
		best=$(faster "$t" "$best")
	}
	run_pskd || { echo "tok: pskd-tok failed"; exit 1; }
	ntok=$(pskd-info "$dir/pskd.psk" | sed -n 's/^count: //p')
	[ "$ntok" = stream ] && ntok=$(( ($(wc -c < "$dir/pskd.psk") - 29) / 4 ))
	rs= wasm=
	if [ $have_rs = 1 ]; then
		set -- $($pin node "$dir/npm.js" rs $enc "$corpus" "$dir/rs.ids")
		rs=$1
		if same_ids "$dir/pskd.psk" "$dir/rs.ids"; then
			echo "tok: $enc: tiktoken-rs-node ids identical ($2 tokens)"
		else
			echo "tok: $enc: tiktoken-rs-node ids DIFFER"; status=1
		fi
	fi
	run_pskd
	if [ $have_wasm = 1 ]; then
		set -- $($pin node "$dir/npm.js" wasm $enc "$corpus" "$dir/wasm.ids")
		wasm=$1
		if same_ids "$dir/pskd.psk" "$dir/wasm.ids"; then
			echo "tok: $enc: tiktoken (WASM) ids identical ($2 tokens)"
		else
			echo "tok: $enc: tiktoken (WASM) ids DIFFER"; status=1
		fi
	fi
	run_pskd
	# The start alone (vocabulary load, empty input), best of 3: the npm
	# timings leave their load out, so the like-for-like rate is
	# pskd-tok's run less its start.
	load=
	for i in 1 2 3; do
		timed $pin pskd-tok -q -r --no-eot -E $enc < /dev/null > /dev/null
		load=$(faster "$t" "$load")
	done
	enc_only=$(echo "$best $load" | awk '{ printf "%.3f", $1 - $2 }')
	mem=$( { /usr/bin/time -f %M pskd-tok -q -r --no-eot -E $enc \
	    < "$corpus" > /dev/null; } 2>&1 | tail -1)
	echo "tok: $enc pskd-tok: $best s, $(rate $size $best) MB/s," \
	    "$(rate $ntok $best) M tokens/s, max RSS ${mem} kB"
	echo "tok: $enc pskd-tok after its start ($load s): $enc_only s," \
	    "$(rate $size $enc_only) MB/s, $(rate $ntok $enc_only) M tokens/s"
	if [ -n "$rs" ]; then
		echo "tok: $enc tiktoken-rs-node: $rs s, $(rate $size $rs) MB/s," \
		    "$(rate $ntok $rs) M tokens/s"
		echo "pskd-tok/tiktoken-rs-node $enc throughput:" \
		    "$(echo "$rs $best" | awk '{ printf "%.2f", $1 / $2 }')" \
		    "(whole run), $(echo "$rs $enc_only" | awk '{ printf "%.2f", $1 / $2 }') (both after loading)"
	fi
	if [ -n "$wasm" ]; then
		echo "tok: $enc tiktoken (WASM): $wasm s, $(rate $size $wasm) MB/s," \
		    "$(rate $ntok $wasm) M tokens/s"
		echo "pskd-tok/tiktoken-wasm $enc throughput:" \
		    "$(echo "$wasm $best" | awk '{ printf "%.2f", $1 / $2 }')" \
		    "(whole run), $(echo "$wasm $enc_only" | awk '{ printf "%.2f", $1 / $2 }') (both after loading)"
	fi
	rm -f "$dir/pskd.psk" "$dir/rs.ids" "$dir/wasm.ids"
done
exit $status
