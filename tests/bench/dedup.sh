#!/bin/sh
# dedup.sh - pskd-shingle, pskd-minhash (both families), pskd-lsh and the
# three piped, on >= 100 MB of generated JSON Lines with planted
# near-duplicates; against a plain Python/numpy implementation of the same
# shingles and MinHash (tests/t/dedup-ref.py) on a slice; the index size
# per document; and the accuracy of the two MinHash families.
set -u
top=${PSKD_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
d=${PSKD_BENCH_DIR:-/tmp/pskd-bench}/dedup
mkdir -p "$d"
cd "$d" || exit 1
py=/usr/bin/python3

if [ ! -s corpus.jsonl ]; then
	echo "generating corpus.jsonl (about 110 MB)"
	$py - <<'PY'
import json, random
r = random.Random(2026)
letters = "etaoinshrdlcumwfgypbvkjxqz"
def word():
    n = min(12, max(1, int(r.expovariate(1 / 4.5)) + 1))
    return "".join(r.choice(letters[:8] if i % 2 else letters) for i in range(n))
vocab = [word() for _ in range(60000)]
# Zipf-like choice: a few words very common, a long tail.
weights = [1 / (i + 1) ** 1.05 for i in range(len(vocab))]
import itertools, bisect
cum = list(itertools.accumulate(weights))
def pick(n):
    return [vocab[bisect.bisect(cum, r.random() * cum[-1])] for _ in range(n)]
docs, size, i = [], 0, 0
with open("corpus.jsonl", "w") as f:
    while size < 110_000_000:
        if docs and r.random() < 0.12:
            d = list(r.choice(docs))
            for _ in range(r.randint(0, len(d) // 40 + 1)):
                d[r.randrange(len(d))] = pick(1)[0]
        else:
            d = pick(r.randint(80, 1600))
            s = " ".join(d).capitalize() + "."
            d = s.split(" ")
        docs.append(d)
        if len(docs) > 3000:
            docs.pop(r.randrange(len(docs)))
        line = json.dumps({"id": "doc-%d" % i, "text": " ".join(d),
                           "url": "https://example.org/%d" % i}) + "\n"
        f.write(line)
        size += len(line)
        i += 1
PY
	head -c 5000000 corpus.jsonl | sed '$d' > slice.jsonl
fi
bytes=$(wc -c < corpus.jsonl)
docs=$(wc -l < corpus.jsonl)
sbytes=$(wc -c < slice.jsonl)
sdocs=$(wc -l < slice.jsonl)
echo "corpus: $bytes bytes, $docs documents; slice for the reference: $sbytes bytes"
pskd-shingle corpus.jsonl > shingles
pskd-minhash shingles > sigs
pskd-minhash -a oph shingles > sigs-oph

cat > ref-bench.py <<PY
import json, sys, time
sys.path.insert(0, "$top/tests/t")
import importlib
ref = importlib.import_module("dedup-ref")
s = ref.seeds(128, 1)
t = time.process_time()
n = 0
for line in open(sys.argv[1]):
    x = ref.shingles(json.loads(line)["text"])
    if len(x):
        ref.classic(x, s)
    n += 1
print(time.process_time() - t)
PY

# The least of three runs of a command that prints seconds.
best3() {
	best=
	for i in 1 2 3; do
		s=$("$@")
		best=$(echo "$s ${best:-$s}" | awk '{ print ($1 < $2) ? $1 : $2 }')
	done
	echo "$best"
}
# CPU seconds (user + system) of a command, best of 3; the machine is
# shared, so CPU time is steadier than wall time.  cputime is time(1) to
# the microsecond (time(1) prints hundredths: 3 % of the 0.3 s pipe).
ct=$top/tests/bench/cputime
cpu1() {
	$ct -f "%U %S" -o t.out sh -c "$1" > /dev/null 2>&1
	awk '{ print $1 + $2 }' t.out
}
cpu() {
	best3 cpu1 "$1"
}
wall() {
	$ct -f "%e" -o t.out sh -c "$1" > /dev/null 2>&1
	cat t.out
}
rate() {	# label seconds bytes docs
	awk -v l="$1" -v s="$2" -v b="$3" -v n="$4" 'BEGIN {
	    if (s < 0.001) s = 0.001
	    printf "%-34s %7.2f s  %8.1f MB/s  %9.0f docs/s\n", l, s,
	        b / s / 1e6, n / s }'
}

echo "-- CPU time (user + system, best of 3), MB/s of JSON Lines input"
t1=$(cpu "pskd-shingle corpus.jsonl"); rate "pskd-shingle" "$t1" "$bytes" "$docs"
t2=$(cpu "pskd-minhash shingles"); rate "pskd-minhash (classic, SIMD)" "$t2" "$bytes" "$docs"
t3=$(cpu "pskd-minhash --portable shingles"); rate "pskd-minhash (classic, portable)" "$t3" "$bytes" "$docs"
t4=$(cpu "pskd-minhash -a oph shingles"); rate "pskd-minhash -a oph" "$t4" "$bytes" "$docs"
t5=$(cpu "pskd-lsh -q sigs"); rate "pskd-lsh" "$t5" "$bytes" "$docs"
t6=$(cpu "pskd-shingle corpus.jsonl | pskd-minhash | pskd-lsh -q")
rate "shingle | minhash | lsh (sum)" "$t6" "$bytes" "$docs"
t7=$(cpu "pskd-shingle corpus.jsonl | pskd-minhash -a oph | pskd-lsh -q")
rate "shingle | minhash -a oph | lsh" "$t7" "$bytes" "$docs"
w=$(wall "pskd-shingle corpus.jsonl | pskd-minhash | pskd-lsh -q")
rate "the three piped, wall clock" "$w" "$bytes" "$docs"
# Into a persistent index, each frame digested as it comes, and committed.
t12=$(cpu "rm -rf pidx; pskd-shingle corpus.jsonl | pskd-minhash | pskd-lsh -q -i pidx && pskd-lsh --commit pidx")
rate "... into -i DIR, committed" "$t12" "$bytes" "$docs"
rm -rf pidx
# The goal is for one core: the three share it, and the pipes cost less
# than between two (no cache lines cross).  CPU = wall here.  The rows
# above count the shells and taskset too (about 0.03 s on these
# machines, where starting a process is dear); "own" adds up what each
# of the three programs used, as time(1) reports it for each.
own1() {	# minhash flags [input]; the three programs' CPU, one run
	taskset -c 0 sh -c "$ct -f '%U %S' -o t1.out \
	    pskd-shingle ${2:-corpus.jsonl} | $ct -f '%U %S' \
	    -o t2.out pskd-minhash $1 | $ct -f '%U %S' \
	    -o t3.out pskd-lsh -q > /dev/null"
	cat t1.out t2.out t3.out | awk '{ s += $1 + $2 } END { print s }'
	rm -f t1.out t2.out t3.out
}
if command -v taskset > /dev/null 2>&1; then
	t8=$(cpu "taskset -c 0 sh -c 'pskd-shingle corpus.jsonl | pskd-minhash | pskd-lsh -q'")
	rate "the three piped on one core" "$t8" "$bytes" "$docs"
	t9=$(cpu "taskset -c 0 sh -c 'pskd-shingle corpus.jsonl | pskd-minhash -a oph | pskd-lsh -q'")
	rate "... -a oph on one core" "$t9" "$bytes" "$docs"
	t10=$(best3 own1 "")
	rate "on one core, the three's own CPU" "$t10" "$bytes" "$docs"
	t11=$(best3 own1 "-a oph")
	rate "... -a oph, the three's own CPU" "$t11" "$bytes" "$docs"
fi

echo "-- against the Python/numpy reference (same shingles and MinHash), on the slice"
tr=$($py ref-bench.py slice.jsonl)
rate "numpy reference shingle+minhash" "$tr" "$sbytes" "$sdocs"
tp=$(cpu "pskd-shingle slice.jsonl | pskd-minhash")
rate "pskd-shingle | pskd-minhash" "$tp" "$sbytes" "$sdocs"
awk -v a="$tr" -v b="$tp" 'BEGIN { if (b < 0.001) b = 0.001
    printf "pskd/numpy-reference throughput (same slice): %.1f\n", a / b }'
# The slice is small enough for start-up to weigh on pskd; per byte on the
# whole corpus (shingle + minhash CPU) against the reference on the slice:
awk -v a="$tr" -v sb="$sbytes" -v t1="$t1" -v t2="$t2" -v b="$bytes" 'BEGIN {
    printf "pskd/numpy-reference throughput (pskd on the whole corpus): %.1f\n",
        (b / (t1 + t2)) / (sb / a) }'

# Multilingual text: the corpus tok.sh builds (tests/t/tok_corpus.py: man
# pages of every installed language, their sources, /usr/share/doc), at
# each PSKD_SIMD level; a level above the machine's runs its widest.
echo "-- multilingual text, the three piped on one core (own CPU, best of 3), per PSKD_SIMD level"
if [ ! -s multi.jsonl ]; then
	if [ -s "$PSKD_BENCH_DIR/tok/corpus.jsonl" ]; then
		cp "$PSKD_BENCH_DIR/tok/corpus.jsonl" multi.jsonl
	else
		echo "generating multi.jsonl (about 64 MB)"
		$py "$top/tests/t/tok_corpus.py" 60000000 multi.tmp 400 &&
		    mv multi.tmp multi.jsonl
	fi
	head -c 3000000 multi.jsonl | sed '$d' > mslice.jsonl
fi
mbytes=$(wc -c < multi.jsonl)
mdocs=$(wc -l < multi.jsonl)
widest=portable
grep -q -w avx2 /proc/cpuinfo 2> /dev/null && widest=avx2
grep -q -w avx512bw /proc/cpuinfo 2> /dev/null && widest=avx512
echo "multilingual corpus: $mbytes bytes, $mdocs documents (this machine: $widest)"
if command -v taskset > /dev/null 2>&1; then
	for l in portable sse2 avx2 avx512; do
		PSKD_SIMD=$l
		export PSKD_SIMD
		tm=$(best3 own1 "" multi.jsonl)
		rate "PSKD_SIMD=$l: shingle|minhash|lsh" "$tm" "$mbytes" "$mdocs"
		ts=$(cpu "taskset -c 0 pskd-shingle multi.jsonl")
		rate "PSKD_SIMD=$l: pskd-shingle alone" "$ts" "$mbytes" "$mdocs"
		if [ $l = avx2 ]; then
			awk -v s="$tm" -v b="$mbytes" 'BEGIN { if (s < 0.001) s = 0.001
			    printf "multilingual pipe on AVX2: %.0f MB/s per core (goal >= 300)\n",
			        b / s / 1e6 }'
			# Where it goes: each program on a file, and the
			# bytes of the two pipes moved by cat alone (the
			# frames carry each document's line through both).
			pskd-shingle multi.jsonl > m.shingles
			pskd-minhash m.shingles > m.sigs
			tmh=$(cpu "taskset -c 0 pskd-minhash m.shingles")
			tlsh=$(cpu "taskset -c 0 pskd-lsh -q m.sigs")
			tcat=$(cpu "taskset -c 0 sh -c 'cat m.shingles | cat'")
			tcat2=$(cpu "taskset -c 0 sh -c 'cat m.sigs | cat'")
			echo "  AVX2 pipe's parts (CPU s): shingle $ts, minhash $tmh," \
			    "lsh $tlsh; cat | cat of the frames: $tcat ($(wc -c < m.shingles)" \
			    "bytes), of the signatures: $tcat2 ($(wc -c < m.sigs) bytes)"
			# The classic family's bound: K = 128 hashes a
			# shingle, two 32-bit multiplies each, eight lanes
			# at a time (pskd-minhash(1), SPEED); against it
			# one hash a shingle (OPH), the same pipe otherwise.
			toph=$(best3 own1 "-a oph" multi.jsonl)
			tmho=$(cpu "taskset -c 0 pskd-minhash -a oph m.shingles")
			awk -v s="$toph" -v b="$mbytes" -v m="$tmho" 'BEGIN {
			    if (s < 0.001) s = 0.001
			    printf "multilingual pipe with -a oph on AVX2: %.0f MB/s per core (goal >= 300; pskd-minhash -a oph alone %.4f s)\n",
			        b / s / 1e6, m }'
			rm -f m.shingles m.sigs
		fi
	done
	unset PSKD_SIMD
fi
tr=$($py ref-bench.py mslice.jsonl)
tp=$(cpu "pskd-shingle mslice.jsonl | pskd-minhash")
awk -v a="$tr" -v b="$tp" 'BEGIN { if (b < 0.001) b = 0.001
    printf "pskd/numpy-reference throughput (multilingual slice): %.1f\n", a / b }'

echo "-- index size"
rm -rf index
pskd-lsh -v -i index sigs 2> lsh.err > /dev/null && pskd-lsh --commit index
cat lsh.err
kept=$(sed -n 's/.*kept \([0-9]*\),.*/\1/p' lsh.err | head -1)
disk=$(du -sb index | cut -f1)
awk -v d="$disk" -v k="$kept" 'BEGIN { printf "index on disk: %d bytes, %.0f bytes per kept document\n", d, d / k }'
/usr/bin/time -f "pskd-lsh peak RSS: %M KB (in-memory run)" pskd-lsh -q sigs > /dev/null
/usr/bin/time -f "pskd-lsh peak RSS: %M KB (the corpus again against the index on disk)" \
    pskd-lsh -q -i index -s 0 sigs > /dev/null

echo "-- accuracy of the families (k = 128): estimate - exact J over pairs"
echo "   (cminhash: C-MinHash, dedup-ref.py's Python only, not offered: it hashes"
echo "   each shingle k times as classic does, so it costs what classic costs)"
$py - "$top" <<'PY'
import json, math, random, subprocess, sys, os
r = random.Random(3)
V = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(3, 9))) for _ in range(30000)]
def grams(w):
    return {tuple(w[i:i + 5]) for i in range(len(w) - 4)}
pairs = []
lines = []
for i in range(2000):
    a = [r.choice(V) for _ in range(r.randint(60, 600))]
    b = list(a)
    for _ in range(r.randint(0, len(a) // 5)):
        b[r.randrange(len(b))] = r.choice(V)
    ga, gb = grams(a), grams(b)
    pairs.append(len(ga & gb) / len(ga | gb))
    lines.append(json.dumps({"text": " ".join(a)}))
    lines.append(json.dumps({"text": " ".join(b)}))
open("pairs.jsonl", "w").write("\n".join(lines) + "\n")
sys.path.insert(0, os.path.join(sys.argv[1], "tests", "t"))
import importlib
ref = importlib.import_module("dedup-ref")
_, shingled = ref.read_frames(subprocess.run(
    "pskd-shingle pairs.jsonl", shell=True, stdout=subprocess.PIPE,
    check=True).stdout)
for fam in ("classic", "oph", "cminhash"):
    if fam == "cminhash":
        fr = [(i, l, ref.cminhash(x, 128, 1)) for i, l, x in shingled]
    else:
        out = subprocess.run("pskd-shingle pairs.jsonl | pskd-minhash -a " + fam,
                             shell=True, stdout=subprocess.PIPE, check=True).stdout
        _, fr = ref.read_frames(out)
    err = [((fr[2 * i][2] == fr[2 * i + 1][2]).mean() - j) for i, j in enumerate(pairs)]
    rmse = math.sqrt(sum(e * e for e in err) / len(err))
    bias = sum(err) / len(err)
    print("%-8s rmse %.4f  bias %+.4f  (%d pairs, J %.2f..%.2f; theory at J=0.8: %.4f)"
          % (fam, rmse, bias, len(err), min(pairs), max(pairs), math.sqrt(0.16 / 128)))
PY
rm -f t.out
