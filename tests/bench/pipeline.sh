#!/bin/sh
# pipeline.sh - the whole pipeline on >= 200 MB of JSON Lines in four zstd
# shards (generated once by pipeline-gen.py from the bundled corpus):
#   1. per stage, each on its own input read from a file: wall, CPU, MB/s of
#      the stage's input and of the raw JSON Lines, and where the CPU goes;
#   2. end to end: dedup per shard against one index in shard order, tokens
#      per shard, then windows packed into one file;
#   3. scale-out: GNU parallel -j2 over the 4 shards against one process
#      doing them one after another, for the map step of the map-reduce
#      dedup and for tokenisation; and, as a guard, that the map-reduce gives
#      the same verdicts as the single-index run.
# The machine is shared: every timing is the best of N runs taken in
# alternation (N = PSKD_BENCH_RUNS, default 3), CPU (user + system) beside
# wall.  MB are 10^6 bytes.
# It runs under bash for pipefail: a failing stage anywhere in a pipe fails
# the script (exit 1), never passes as an empty output.
[ -n "${BASH_VERSION:-}" ] || exec /bin/bash "$0" "$@"
set -eu -o pipefail
top=${PSKD_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PATH=${PSKD_BIN:-$top/bin}:$PATH
export PATH
d=${PSKD_BENCH_DIR:-/tmp/pskd-bench}/pipeline
runs=${PSKD_BENCH_RUNS:-3}
T=1024
ENC=cl100k_base
S="0 1 2 3"
mkdir -p "$d"
cd "$d"
d=$(pwd)

die() { echo "pipeline.sh: $*" >&2; exit 1; }
for p in pskd-unzst pskd-shingle pskd-minhash pskd-lsh pskd-tok pskd-window pskd-pack; do
	command -v $p > /dev/null || die "$p not found (make -C $top)"
done
command -v parallel > /dev/null || die "GNU parallel not found (apt-get install parallel)"
PSKD_VOCAB_DIR=${PSKD_VOCAB_DIR:-$top/vocab}
export PSKD_VOCAB_DIR
[ -f "$PSKD_VOCAB_DIR/$ENC.tiktoken" ] ||
	die "no $PSKD_VOCAB_DIR/$ENC.tiktoken (make -C $top deps)"
# The programs as they are now, copied: a rebuild in the checkout during
# the run neither fails it nor mixes two builds in one report.
rm -rf bin && mkdir bin
for p in pskd-unzst pskd-shingle pskd-minhash pskd-lsh pskd-tok pskd-window pskd-pack; do
	cp "$(command -v $p)" bin/ || die "cannot copy $p"
done
PATH=$d/bin:$PATH
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"

# The input, once: reused while gen.txt (written last) is there.
if [ ! -s gen/gen.txt ]; then
	echo "generating 4 shards, >= 200 MB of JSON Lines (once; about a minute)"
	rm -rf gen
	/usr/bin/python3 "$top/tests/bench/pipeline-gen.py" "$top/examples/corpus" gen ||
		die "generation failed"
fi
for s in $S; do [ -s gen/shard-$s.jsonl.zst ] || die "gen/shard-$s.jsonl.zst missing"; done

# time LABEL COMMAND: run COMMAND under bash -o pipefail -e, append
# "LABEL wall cpu" to times; a failure stops the script.
: > times
run=0
tm() {
	/usr/bin/time -f "%e %U %S" -o t.out /bin/bash -o pipefail -ec "$2" ||
		die "$1 failed: $2"
	awk -v l="$1" -v r="$run" 'END { printf "%s %.2f %.2f %s\n", l, $1, $2 + $3, r }' t.out >> times
}
best() {	# LABEL FIELD(2 wall, 3 cpu): the least of the runs
	awk -v l="$1" -v f="$2" '$1 == l { if (b == "" || $f < b) b = $f }
	    END { if (b == "") b = 0; if (b < 0.01) b = 0.01; print b }' times
}
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
size() { stat -c %s "$1"; }

# ---- 1. stages: each stage's input materialised once, in stages/ --------
echo "-- materialising each stage's input (the first, untimed, run)"
rm -rf stages && mkdir stages
cat gen/shard-0.jsonl.zst gen/shard-1.jsonl.zst gen/shard-2.jsonl.zst \
    gen/shard-3.jsonl.zst > stages/all.zst
pskd-unzst stages/all.zst > stages/raw.jsonl
pskd-shingle stages/raw.jsonl > stages/shingles
pskd-minhash stages/shingles > stages/sigs
pskd-lsh -q -i stages/idx --verdicts stages/verdicts stages/sigs > stages/kept.jsonl
rm -rf stages/idx
pskd-tok -q -E $ENC stages/kept.jsonl > stages/tokens.psk.d
pskd-window -t $T stages/tokens.psk.d > stages/windows.psk.d
pskd-pack -o stages/train.psk.d stages/windows.psk.d
raw=$(size stages/raw.jsonl)
docs=$(wc -l < stages/raw.jsonl)
keptn=$(wc -l < stages/kept.jsonl)
read -r _ gdocs _ planted < gen/gen.txt
echo "input: 4 shards, $(mb "$(size stages/all.zst)") MB zstd, $(mb "$raw") MB JSON Lines, $docs documents ($planted near-duplicates planted)"
awk -v k="$keptn" -v n="$docs" -v p="$planted" 'BEGIN {
    printf "kept fraction: %.1f %% (%d of %d documents kept; %d dropped, %d planted)\n",
        100 * k / n, k, n, n - k, p }'

stages="unzst shingle minhash lsh tok window pack"
declare -A inp cmd
inp[unzst]=stages/all.zst;	cmd[unzst]="pskd-unzst stages/all.zst > /dev/null"
inp[shingle]=stages/raw.jsonl;	cmd[shingle]="pskd-shingle stages/raw.jsonl > /dev/null"
inp[minhash]=stages/shingles;	cmd[minhash]="pskd-minhash stages/shingles > /dev/null"
inp[lsh]=stages/sigs;		cmd[lsh]="pskd-lsh -q -i stages/idx stages/sigs > /dev/null"
inp[tok]=stages/kept.jsonl;	cmd[tok]="pskd-tok -q -E $ENC stages/kept.jsonl > /dev/null"
inp[window]=stages/tokens.psk.d;	cmd[window]="pskd-window -t $T stages/tokens.psk.d > /dev/null"
inp[pack]=stages/windows.psk.d;	cmd[pack]="pskd-pack -o stages/out.psk.d stages/windows.psk.d"
for i in $(seq "$runs"); do
	for st in $stages; do
		rm -rf stages/idx stages/out.psk.d
		tm "$st" "${cmd[$st]}"
	done
done
cmp -s stages/out.psk.d stages/train.psk.d || die "pskd-pack: a second run gave other bytes"
rm -rf stages/idx stages/out.psk.d

echo "-- per stage, best of $runs, each reading its input from a file (page cache)"
printf '%-14s %9s %8s %8s %10s %10s %7s\n' stage "input MB" "wall s" "CPU s" "in MB/s" "raw MB/s" "CPU %"
sum=0
for st in $stages; do sum=$(awk -v a="$sum" -v b="$(best "$st" 3)" 'BEGIN { print a + b }'); done
for st in $stages; do
	awk -v st="pskd-$st" -v ib="$(size "${inp[$st]}")" -v w="$(best "$st" 2)" \
	    -v c="$(best "$st" 3)" -v r="$raw" -v s="$sum" 'BEGIN {
	    printf "%-14s %9.1f %8.2f %8.2f %10.1f %10.1f %6.1f%%\n",
	        st, ib / 1e6, w, c, ib / 1e6 / w, r / 1e6 / w, 100 * c / s }'
done
awk -v s="$sum" -v r="$raw" 'BEGIN {
    printf "%-14s %9s %8s %8.2f %10s %10.1f %7s\n", "all (CPU sum)", "", "", s, "", r / 1e6 / s, "100%" }'
echo "where the time goes (share of the stages' CPU):"
for st in $stages; do echo "$st $(best "$st" 3)"; done | sort -k2,2nr |
	awk -v s="$sum" '{ n = int(50 * $2 / s + 0.5); bar = ""
	    for (i = 0; i < n; i++) bar = bar "#"
	    printf "  %-13s %5.1f%%  %s\n", "pskd-" $1, 100 * $2 / s, bar }'

# ---- 2. end to end ------------------------------------------------------
# Timed phase by phase (one after another, so the run's wall is the sum):
# dedup of each shard against the one index (shard 0 starts it empty, the
# later ones are looked up in it on disk), tokens per shard, windows packed.
for i in $(seq "$runs"); do
	run=$i
	rm -rf e2e && mkdir -p e2e/kept e2e/tokens
	for s in $S; do
		tm e2e-dedup$s "pskd-unzst gen/shard-$s.jsonl.zst | pskd-shingle | pskd-minhash |
		    pskd-lsh -q -i e2e/idx --verdicts e2e/kept/$s.verdicts > e2e/kept/$s.jsonl &&
		    pskd-lsh --commit e2e/idx"
	done
	tm e2e-tok "for s in $S; do pskd-tok -q -E $ENC e2e/kept/\$s.jsonl > e2e/tokens/\$s.psk.d; done"
	tm e2e-pack "pskd-pack e2e/tokens/0.psk.d e2e/tokens/1.psk.d e2e/tokens/2.psk.d e2e/tokens/3.psk.d |
	    pskd-window -t $T | pskd-pack -o e2e/train.psk.d"
done
run=0
cmp -s e2e/train.psk.d stages/train.psk.d ||
	die "end to end: train.psk.d differs from the stage-by-stage one"
# Per run, the sum of its phases; the best run's wall, the least CPU.
awk '$1 ~ /^e2e-/ { w[$4] += $2; c[$4] += $3 }
    END { for (r in w) print "e2e", w[r], c[r] }' times >> times
echo "-- end to end (4 shards one after another, one index; best of $runs)"
ecpu=$(best e2e 3)
printf '%-40s %8s %8s %7s\n' phase "wall s" "CPU s" "CPU %"
for ph in dedup0 dedup1 dedup2 dedup3 tok pack; do
	case $ph in
	dedup0) l="dedup shard 0 (unzst|shingle|minhash|lsh)" ;;
	dedup[1-3]) l="dedup shard ${ph#dedup}, against the index on disk" ;;
	tok) l="pskd-tok, 4 kept shards" ;;
	pack) l="pskd-pack tokens | window -t $T | pack -o" ;;
	esac
	awk -v l="$l" -v w="$(best e2e-$ph 2)" -v c="$(best e2e-$ph 3)" -v s="$ecpu" 'BEGIN {
	    printf "%-40s %8.2f %8.2f %6.1f%%\n", l, w, c, 100 * c / s }'
done
awk -v r="$raw" -v w="$(best e2e 2)" -v c="$ecpu" -v st="$sum" 'BEGIN {
    printf "end to end: %.0f MB JSONL in %.1f s = %.1f MB/s (CPU %.1f s = %.1f MB/s per core; %.2f cores busy)\n",
        r / 1e6, w, r / 1e6 / w, c, r / 1e6 / c, c / w
    printf "end-to-end CPU / sum of the stages run alone: %.2f\n", c / st }'
echo "train.psk.d identical to the stage-by-stage one: yes"

# ---- 3. scale-out: parallel -j2 over 4 shards vs one process -------------
export PARALLEL_SHELL=/bin/bash
par="parallel --will-cite -j2 --halt now,fail=1"
map1='rm -rf mr1 && mkdir mr1
for s in '"$S"'; do
	pskd-unzst gen/shard-$s.jsonl.zst | pskd-shingle | pskd-minhash > mr1/$s.sig
	pskd-lsh --map 2 -s $s -o mr1/$s mr1/$s.sig
done'
mapP='rm -rf mr2 && mkdir mr2
'"$par"' '\''set -o pipefail; pskd-unzst gen/shard-{}.jsonl.zst | pskd-shingle | pskd-minhash > mr2/{}.sig && pskd-lsh --map 2 -s {} -o mr2/{} mr2/{}.sig'\'' ::: '"$S"
tok1='rm -rf tok1 && mkdir tok1
for s in '"$S"'; do pskd-tok -q -E '$ENC' e2e/kept/$s.jsonl > tok1/$s.psk.d; done'
tokP='rm -rf tok2 && mkdir tok2
'"$par"' '\''pskd-tok -q -E '$ENC' e2e/kept/{}.jsonl > tok2/{}.psk.d'\'' ::: '"$S"
for i in $(seq "$runs"); do
	tm map1 "$map1"; tm mapP "$mapP"
	tm tok1 "$tok1"; tm tokP "$tokP"
	tm par0 "$par true ::: $S"
done
for s in $S; do
	cmp -s tok1/$s.psk.d e2e/tokens/$s.psk.d && cmp -s tok2/$s.psk.d e2e/tokens/$s.psk.d ||
		die "tokens of shard $s differ between the runs"
	cmp -s mr1/$s.keys-000 mr2/$s.keys-000 && cmp -s mr1/$s.keys-001 mr2/$s.keys-001 ||
		die "map output of shard $s differs between one process and parallel"
done

# The reduce steps, once, on the parallel map's output (as in
# examples/Makefile mapreduce-parallel), and the guard: the same verdicts
# (and kept documents) as the single-index run of the end to end.
red="$par"' '\''set -o pipefail; LC_ALL=C sort mr2/*.keys-{} | pskd-lsh --pairs > mr2/pairs-{}'\'' ::: 000 001
LC_ALL=C sort -u mr2/pairs-000 mr2/pairs-001 | pskd-lsh -q --cluster mr2/0 mr2/1 mr2/2 mr2/3
'"$par"' '\''pskd-lsh --apply mr2/{}.verdicts mr2/{}.sig > mr2/{}.kept.jsonl'\'' ::: '"$S"
tm reduce "$red"
same=yes
for s in $S; do
	cmp -s mr2/$s.verdicts e2e/kept/$s.verdicts || same=no
	cmp -s mr2/$s.kept.jsonl e2e/kept/$s.jsonl || same=no
done

echo "-- scale-out: 4 shards, parallel -j2 vs one process one shard after another (best of $runs)"
ratio() {	# LABEL ONE PAR
	awk -v l="$1" -v w1="$(best "$2" 2)" -v c1="$(best "$2" 3)" \
	    -v w2="$(best "$3" 2)" -v c2="$(best "$3" 3)" 'BEGIN {
	    printf "%-26s one process %6.2f s (CPU %6.2f)  parallel -j2 %6.2f s (CPU %6.2f)\n", l ":", w1, c1, w2, c2
	    printf "parallel -j2 / one process, %s: %.2fx (CPU %.2fx as much)\n", l, w1 / w2, c2 / c1 }'
}
ratio "map step" map1 mapP
ratio "tokenisation" tok1 tokP
awk -v r="$raw" -v w1="$(best map1 2)" -v w2="$(best mapP 2)" 'BEGIN {
    printf "map step: %.1f MB/s one process, %.1f MB/s parallel -j2 (raw JSONL)\n", r / 1e6 / w1, r / 1e6 / w2 }'
awk -v w="$(best par0 2)" -v c="$(best par0 3)" 'BEGIN {
    printf "GNU parallel itself (4 empty jobs, -j2): %.2f s (CPU %.2f), in each parallel time above\n", w, c }'
awk -v w="$(best reduce 2)" -v c="$(best reduce 3)" 'BEGIN {
    printf "reduce (sort + pairs per partition, cluster, apply), once: %.2f s (CPU %.2f)\n", w, c }'
echo "verdicts identical: $same (map-reduce, 2 partitions, parallel -j2 vs one index in shard order)"
# Where the end to end's dedup time goes: the same signatures through
# pskd-lsh in one run in memory, and shard by shard against an index on
# disk, as the end to end does.
for i in $(seq "$runs"); do
	tm lshmem "pskd-lsh -q mr2/0.sig mr2/1.sig mr2/2.sig mr2/3.sig > /dev/null"
	tm lshidx "rm -rf lshidx; for s in $S; do pskd-lsh -q -i lshidx mr2/\$s.sig > /dev/null && pskd-lsh --commit lshidx; done"
done
rm -rf lshidx
echo "-- pskd-lsh on the 4 shards' signatures (best of $runs)"
awk -v w1="$(best lshmem 2)" -v c1="$(best lshmem 3)" -v w2="$(best lshidx 2)" \
    -v c2="$(best lshidx 3)" -v r="$raw" 'BEGIN {
    printf "one run, index in memory:              %6.2f s (CPU %6.2f) = %6.1f MB/s raw\n", w1, c1, r / 1e6 / w1
    printf "shard by shard, one index on disk (-i): %6.2f s (CPU %6.2f) = %6.1f MB/s raw; %.1fx the CPU\n", w2, c2, r / 1e6 / w2, c2 / c1 }'
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
rm -rf mr1 tok1 tok2
[ "$same" = yes ] || exit 1
