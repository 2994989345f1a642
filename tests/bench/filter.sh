#!/bin/sh
# filter.sh - pskd-filter against datatrove's filters on the same documents
# (tests/data/filter/docs.jsonl: web pages, mail, manuals, speeches, edge
# cases), one core each (taskset -c 0), in documents per CPU second: the
# four rule sets of the FineWeb recipe together (fineweb-chain: -r
# gopher-repetition,gopher-quality,c4,fineweb, C4 without its terminal
# punctuation rule, against datatrove's four filters in that order), then
# each rule set alone against its datatrove filter (the options of
# tests/data/filter/configs.tsv).  pskd's rate on the documents 40 times
# over, user and system time of the process, with its vector code and with
# PSKD_SIMD=0 (the portable paths); datatrove's on them once, the CPU time
# of its loop (filter-datatrove.py), given pskd's segmentation (icu) and
# NLTK's; each the least of three runs, so that a busy machine's noise
# counts less, on both sides alike.  Goal: >= 100 times datatrove's rate
# for the four together.
# Then pskd-filter's peak RSS on that corpus and on one 10 MB document:
# memory grows with the largest document, not the corpus.
#
# datatrove comes from DATATROVE: a checkout or a bare git directory of
# huggingface/datatrove (default: the copy the search tool's fetch left
# in /work/.mirror); without one, pskd's rates only.
set -u
top=${PSKD_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
d=${PSKD_BENCH_DIR:-/tmp/pskd-bench}/filter
mkdir -p "$d"
py=/usr/bin/python3
docs=$top/tests/data/filter/docs.jsonl
sets=gopher-repetition,gopher-quality,c4,fineweb
opts="-q -r $sets -s c4.filter_no_terminal_punct=0"

if [ ! -s "$d/corpus.jsonl" ]; then
	: > "$d/corpus.tmp"
	for k in $(seq 40); do cat "$docs" >> "$d/corpus.tmp"; done
	mv "$d/corpus.tmp" "$d/corpus.jsonl"
fi
if [ ! -s "$d/big.jsonl" ]; then
	$py -c '
import json, sys
sys.path.insert(0, sys.argv[1])
import corpus
print(json.dumps({"id": "big", "text": corpus.big_doc()}))' \
	    "$top/tests/data/filter" > "$d/big.jsonl"
fi
n=$(wc -l < "$d/corpus.jsonl")
bytes=$(wc -c < "$d/corpus.jsonl")
/usr/bin/time -f '%U %S %M' -o "$d/time" taskset -c 0 \
    pskd-filter $opts "$d/corpus.jsonl" > /dev/null
read -r u s rss < "$d/time"
/usr/bin/time -f '%U %S %M' -o "$d/time-big" \
    pskd-filter $opts "$d/big.jsonl" > /dev/null
read -r bu bs brss < "$d/time-big"
printf 'peak RSS: %d KiB on %d bytes of documents; %d KiB on one document of %d bytes\n' \
    "$rss" "$bytes" "$brss" "$(wc -c < "$d/big.jsonl")"

dt=${DATATROVE:-/work/.mirror/huggingface+datatrove/repo}
src=
if [ -d "$dt/src/datatrove" ]; then
	src=$dt
elif git --git-dir="$dt" rev-parse HEAD > /dev/null 2>&1; then
	src=$d/datatrove
	if [ ! -d "$src/src/datatrove" ]; then
		for f in $(git --git-dir="$dt" ls-tree -r --name-only HEAD \
		    src/datatrove | grep '\.\(py\|csv\|txt\)$'); do
			mkdir -p "$src/$(dirname "$f")"
			git --git-dir="$dt" show "HEAD:$f" > "$src/$f"
		done
	fi
else
	echo "no datatrove (set DATATROVE to a checkout of huggingface/datatrove): pskd's rates only"
fi

# pskd-filter's documents per CPU second with options $2, PSKD_SIMD=$1:
# the least CPU time of three runs
pskd_rate() {
	best=
	for k in 1 2 3; do
		PSKD_SIMD=$1 /usr/bin/time -f '%U %S' -o "$d/time" \
		    taskset -c 0 pskd-filter -q $2 "$d/corpus.jsonl" > /dev/null
		read -r u s < "$d/time"
		cpu=$(echo "$u + $s" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$cpu < $best" | bc -l)" = 1 ]; then
			best=$cpu
		fi
	done
	echo "$n / $best" | bc -l
}

for config in fineweb-chain gopher-repetition gopher-quality c4-no-punct \
    fineweb; do
	o=$(awk -F '\t' -v c="$config" '$1 == c { print $2 }' \
	    "$top/tests/data/filter/configs.tsv")
	echo "-- $config: $o"
	vec=$(pskd_rate 1 "$o")
	port=$(pskd_rate 0 "$o")
	printf 'pskd-filter: %d documents (%d bytes): %.0f documents per CPU second (PSKD_SIMD=0: %.0f)\n' \
	    "$n" "$bytes" "$vec" "$port"
	[ -n "$src" ] || continue
	for tok in icu nltk; do
		out=$(taskset -c 0 $py "$top/tests/bench/filter-datatrove.py" \
		    "$src" "$tok" "$docs" "$config" 2> /dev/null) ||
		    { echo "datatrove ($tok) failed"; continue; }
		set -- $out
		rate=$(echo "$1 / $3" | bc -l)
		printf 'datatrove (%s words): %d documents in %.2f CPU s: %.1f documents per CPU second\n' \
		    "$tok" "$1" "$3" "$rate"
		printf 'ratio pskd-filter / datatrove (%s): %.0fx (PSKD_SIMD=0: %.0fx)%s\n' \
		    "$tok" "$(echo "$vec / $rate" | bc -l)" \
		    "$(echo "$port / $rate" | bc -l)" \
		    "$([ "$config" = fineweb-chain ] && echo ' (goal >= 100x)')"
	done
done
