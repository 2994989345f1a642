#!/bin/sh
# lid.sh - pskd-lid against python3-fasttext, side by side in one run, the
# same lid.176.ftz, on one core (taskset -c 0), whole processes (start,
# model load, reading JSON Lines): documents per CPU-second (user + system,
# the best of 3 runs each, steadier than wall time on a shared machine) and
# peak RSS, for
#   annotate   pskd-lid -m lid176            python: json.loads, the text's
#                                            newlines to spaces, predict(text)
#   filter     pskd-lid --keep en (-t 0.65)  python: datatrove's LanguageFilter,
#                                            predict(text, k=-1), score > 0.65
# The python loops write nothing, which favours them.  Goal: >= 1.2 the
# documents per CPU-second of python.  Corpora, made once in
# $PSKD_BENCH_DIR/lid: the example corpus four times (English, 10844
# documents of 2 KB), 30 MB of this machine's man pages and docs in their
# languages (tests/t/tok_corpus.py), and one document of up to 4000
# characters per translation catalog (short strings, ~200 languages: few
# tokens repeat, the worst case for pskd-lid's table of tokens).  Memory:
# the model alone is pskd-lid's peak on an empty input.
set -eu
top=${PSKD_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${PSKD_BENCH_DIR:?}"
d=$PSKD_BENCH_DIR/lid
py=/usr/bin/python3
model=$top/vocab/lid176.ftz
mkdir -p "$d"
if [ ! -f "$model" ]; then
	echo "lid: no vocab/lid176.ftz (make deps): skipped"; exit 0
fi
if ! $py -c 'import fasttext' 2> /dev/null; then
	echo "lid: no python3-fasttext (make deps): skipped"; exit 0
fi
pin=
command -v taskset > /dev/null && pin="taskset -c 0"

if [ ! -f "$d/en.jsonl" ]; then
	for i in 1 2 3 4; do
		for f in "$top"/examples/corpus/*.zst; do zstd -dc "$f"; done
	done > "$d/en.jsonl.tmp"
	mv "$d/en.jsonl.tmp" "$d/en.jsonl"
fi
if [ ! -f "$d/man.jsonl" ]; then
	echo "lid: building the man page corpus (once) in $d"
	$py "$top/tests/t/tok_corpus.py" 30000000 "$d/man.jsonl.tmp" 400
	mv "$d/man.jsonl.tmp" "$d/man.jsonl"
fi
if [ ! -f "$d/catalogs.jsonl" ]; then
	$py - "$d/catalogs.jsonl.tmp" <<'EOF'
import gettext, glob, json, sys
with open(sys.argv[1], "w") as out:
    for f in sorted(glob.glob("/usr/share/locale/*/LC_MESSAGES/*.mo")):
        try:
            with open(f, "rb") as fp:
                t = gettext.GNUTranslations(fp)
        except Exception:
            continue
        s = [v for k, v in sorted(t._catalog.items(), key=str)
             if k and isinstance(v, str)]
        if s:
            out.write(json.dumps({"text": "\n".join(s)[:4000]}) + "\n")
EOF
	mv "$d/catalogs.jsonl.tmp" "$d/catalogs.jsonl"
fi

cat > "$d/peer.py" <<'EOF'
# python3 peer.py annotate|filter MODEL FILE: the predict loop of a python
# pipeline over JSON Lines documents, as datatrove runs it.
import json, sys
import fasttext
fasttext.FastText.eprint = lambda *a, **k: None
mode, path = sys.argv[1], sys.argv[3]
m = fasttext.load_model(sys.argv[2])
kept = 0
with open(path, encoding="utf-8") as f:
    for line in f:
        text = json.loads(line)["text"].replace("\n", " ")
        if mode == "annotate":
            labels, scores = m.predict(text)
        else:
            labels, scores = m.predict(text, k=-1)
            pairs = {l.split("__")[2]: s.item() for l, s in zip(labels, scores)}
            kept += pairs.get("en", 0.0) > 0.65
EOF

# best CMD...: "cpu-seconds peak-KB", the run of least CPU time of 3.
best() {
	b=
	for _ in 1 2 3; do
		/usr/bin/time -f '%U %S %M' -o "$d/time" $pin "$@" > /dev/null
		r=$(awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$d/time")
		if [ -z "$b" ] || [ "$(echo "$r $b" | awk '{ print ($1 < $3) }')" = 1 ]; then
			b=$r
		fi
	done
	echo "$b"
}

: > "$d/empty.jsonl"
alone=$(best pskd-lid -q -m "$model" "$d/empty.jsonl")
echo "lid: pskd-lid with the model alone (no document): $(echo "$alone" |
    awk '{ printf "%.1f MB peak RSS", $2 / 1024 }')"
for c in en man catalogs; do
	f=$d/$c.jsonl
	n=$(wc -l < "$f")
	mb=$(wc -c < "$f" | awk '{ printf "%.1f", $1 / 1e6 }')
	longest=$(awk '{ if (length($0) > m) m = length($0) } END { printf "%.0f", m / 1024 }' "$f")
	for mode in annotate filter; do
		if [ $mode = annotate ]; then
			ours=$(best pskd-lid -q -m "$model" "$f")
		else
			ours=$(best pskd-lid -q -m "$model" --keep en "$f")
		fi
		theirs=$(best $py "$d/peer.py" $mode "$model" "$f")
		echo "$c $n $mb $longest $mode $ours $theirs"
	done
done | awk '{
	ours = $2 / $6; theirs = $2 / $8
	printf "lid: %s (%d documents, %s MB, longest line %d KB), %s: " \
	    "pskd-lid %.0f docs/CPU-s, python3-fasttext %.0f; ratio %.2f " \
	    "(goal >= 1.2); peak RSS %.1f MB vs %.1f MB\n", $1, $2, $3, $4,
	    $5, ours, theirs, ours / theirs, $7 / 1024, $9 / 1024
}'
