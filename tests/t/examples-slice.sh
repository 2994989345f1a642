# examples-slice.sh - sourced by the scale-out tests (slurm-build,
# ssh-build, examples-recipe): a small slice of the example corpus as four
# shards in three formats, with near-duplicates across and within shards,
# its URL list, and the build's outputs to compare.
#
#   slice DIR        DIR/corpus/ and DIR/urls.txt (sha256 and size from
#                    sha256sum and wc, not from pskd)
#   mkx D ARGS...    make -C examples on that list, into D (at most 300 s)
#   same D1 D2       the verdicts, tombstones, kept shards and the
#                    training set of two builds are the same bytes; prints
#                    the names that differ
slice() {
	mkdir -p "$1/corpus"
	for i in 0 1 2 3; do
		zstd -dc "$PSKD_TOP/examples/corpus/sotu-00$i.jsonl.zst" |
		    head -n 30 > "$1/s$i.jsonl"
	done
	# Near-duplicates across shards: exact copies under other ids, and a
	# copy whose spacing differs (the same after normalisation).
	sed -n '1,3p' "$1/s0.jsonl" | sed 's/"id": "/"id": "again-/' >> "$1/s2.jsonl"
	sed -n '5p' "$1/s1.jsonl" | sed 's/"id": "/"id": "spaced-/; s/ the / the  /g' \
	    >> "$1/s3.jsonl"
	# And one within a shard, far from its original (another piece).
	sed -n '2p' "$1/s3.jsonl" | sed 's/"id": "/"id": "later-/' >> "$1/s3.jsonl"
	zstd -q -19 "$1/s0.jsonl" -o "$1/corpus/sotu-000.jsonl.zst"
	gzip -9n < "$1/s1.jsonl" > "$1/corpus/sotu-001.jsonl.gz"
	zstd -q -3 "$1/s2.jsonl" -o "$1/corpus/sotu-002.jsonl.zst"
	cp "$1/s3.jsonl" "$1/corpus/sotu-003.jsonl"
	for f in sotu-000.jsonl.zst sotu-001.jsonl.gz sotu-002.jsonl.zst sotu-003.jsonl; do
		printf '%s %s %s\n' "$f" \
		    "$(sha256sum < "$1/corpus/$f" | cut -d' ' -f1)" \
		    "$(wc -c < "$1/corpus/$f" | tr -d ' ')"
	done > "$1/urls.txt"
	SLICE=$1
}

mkx() {
	_d=$1
	shift
	timeout 300 make --no-print-directory -C "$PSKD_TOP/examples" PSKD_BIN="$PSKD_BIN" \
	    URLS="$SLICE/urls.txt" URLBASE="file://$SLICE/corpus" D="$_d" "$@"
}

same() {
	_diff=
	for _s in sotu-000 sotu-001 sotu-002 sotu-003; do
		for _f in kept/$_s.verdicts kept/$_s.dropped kept/$_s.jsonl.zst; do
			cmp -s "$1/$_f" "$2/$_f" || _diff="$_diff $_f"
		done
	done
	cmp -s "$1/train.psk.d" "$2/train.psk.d" || _diff="$_diff train.psk.d"
	echo "$_diff"
}
