#!/bin/sh
# filter.sh - pskd-filter's four rule sets of the FineWeb recipe
# (-r gopher-repetition,gopher-quality,c4,fineweb) against datatrove's four
# filters on the same documents (tests/data/filter/docs.jsonl: web pages,
# mail, manuals, speeches, edge cases), one core each (taskset -c 0), in
# documents per CPU second: pskd's on the documents 40 times over, user
# and system time of the process; datatrove's on them once, the CPU time
# of its loop (filter-datatrove.py), given pskd's segmentation (icu) and
# NLTK's.  Goal: >= 100 times datatrove's rate.  Then pskd-filter's peak
# RSS on that corpus and on one 10 MB document: memory grows with the
# largest document, not the corpus.
#
# datatrove comes from DATATROVE: a checkout or a bare git directory of
# huggingface/datatrove (default: the copy the search tool's fetch left
# in /work/.mirror); skipped with a message when there is none.
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
pskd_cpu=$(echo "$u + $s" | bc -l)
pskd_rate=$(echo "$n / $pskd_cpu" | bc -l)
printf 'pskd-filter: %d documents (%d bytes) in %.2f CPU s: %.0f documents per CPU second\n' \
    "$n" "$bytes" "$pskd_cpu" "$pskd_rate"
/usr/bin/time -f '%U %S %M' -o "$d/time-big" \
    pskd-filter $opts "$d/big.jsonl" > /dev/null
read -r bu bs brss < "$d/time-big"
printf 'peak RSS: %d KiB on %d bytes of documents; %d KiB on one document of %d bytes\n' \
    "$rss" "$bytes" "$brss" "$(wc -c < "$d/big.jsonl")"

dt=${DATATROVE:-/work/.mirror/huggingface+datatrove/repo}
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
	echo "skip: no datatrove (set DATATROVE to a checkout of huggingface/datatrove)"
	exit 0
fi
for tok in icu nltk; do
	out=$(taskset -c 0 $py "$top/tests/bench/filter-datatrove.py" "$src" \
	    "$tok" "$docs" 2> /dev/null) || { echo "datatrove ($tok) failed"; continue; }
	set -- $out
	rate=$(echo "$1 / $3" | bc -l)
	printf 'datatrove (%s words): %d documents in %.2f CPU s: %.1f documents per CPU second\n' \
	    "$tok" "$1" "$3" "$rate"
	printf 'ratio pskd-filter / datatrove (%s): %.0fx (goal >= 100x)\n' \
	    "$tok" "$(echo "$pskd_rate / $rate" | bc -l)"
done
