#!/bin/sh
# train.sh - pskd-tok --train against HF tokenizers' BpeTrainer (the npm
# package tokenizers, native, RAYON_NUM_THREADS=1) on the same 50 MB of real
# text (man pages and /usr/share/doc), side by side: wall time and peak RSS
# (GNU time), three rounds alternating, medians.
#
# Both pre-tokenize with the GPT-2 pattern (pskd-tok -E r50k_base; HF
# ByteLevel with its regex), one document a line, and learn 30000 tokens:
# the node binding trains with BpeTrainer's defaults (vocab_size 30000,
# min_frequency 0) and offers no way to change them.
set -u
dir=${PSKD_BENCH_DIR:-/tmp/pskd-bench}
top=${PSKD_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
mkdir -p "$dir"
corpus=$dir/train-corpus.txt
size=${TRAIN_BENCH_BYTES:-52428800}
N=30000

if [ ! -s "$corpus" ]; then
	echo "building $corpus ($size bytes of man pages and docs)"
	{
		find /usr/share/man -name '*.gz' | sort | xargs zcat 2>/dev/null
		find /usr/share/doc -type f -name '*.gz' | sort |
		    xargs zcat 2>/dev/null
		find /usr/share/doc -type f ! -name '*.gz' | sort |
		    xargs cat 2>/dev/null
	} | iconv -f UTF-8 -t UTF-8 -c | head -c "$size" |
	    python3 -c 'import sys; d = sys.stdin.buffer.read()
sys.stdout.buffer.write(d[:d.rindex(b"\n") + 1])' > "$corpus.tmp" &&
	    mv "$corpus.tmp" "$corpus"
fi
bytes=$(wc -c < "$corpus")
echo "corpus: $bytes bytes, $(wc -l < "$corpus") lines"

hf=$dir/train-hf.js
cat > "$hf" <<'EOF'
const fs = require('fs');
const { Tokenizer, BPE, byteLevelPreTokenizer } = require('tokenizers');
const t = new Tokenizer(BPE.empty());
t.setPreTokenizer(byteLevelPreTokenizer(false, true));
t.train([process.argv[2]]);
console.error('HF vocabulary: ' + t.getVocabSize() + ' tokens');
if (process.argv[3]) {
  // gpt2's byte-to-character map, reversed: the tokens as bytes.
  const bs = [], cs = [];
  for (let b = 0; b < 256; b++)
    if ((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174) {
      bs.push(b); cs.push(b);
    }
  for (let b = 0, n = 0; b < 256; b++)
    if (!bs.includes(b)) { bs.push(b); cs.push(256 + n++); }
  const back = {};
  bs.forEach((b, i) => { back[String.fromCodePoint(cs[i])] = b; });
  const v = Object.entries(t.getVocab()).sort((a, b) => a[1] - b[1]);
  fs.writeFileSync(process.argv[3], v.map(([tok]) => Buffer.from(
    Array.from(tok).map(c => back[c])).toString('base64')).join('\n') + '\n');
}
EOF
have_hf=1
if ! command -v node > /dev/null ||
    ! node -e 'require("tokenizers")' > /dev/null 2>&1; then
	echo "skip HF: node or the npm package tokenizers is missing (make deps)"
	have_hf=0
fi

# measure LABEL CMD...: append "seconds kilobytes" to $dir/LABEL.times
measure() {
	label=$1
	shift
	/usr/bin/time -f '%e %M' -o "$dir/time.out" "$@" > /dev/null \
	    2> "$dir/$label.err" || { echo "$label failed:"; \
	    cat "$dir/$label.err"; return 1; }
	cat "$dir/time.out" >> "$dir/$label.times"
}
median() {	# column of a times file
	cut -d' ' -f"$2" "$1" | sort -n | sed -n 2p
}

rm -f "$dir"/pskd.times "$dir"/hf.times
for round in 1 2 3; do
	measure pskd pskd-tok --train $N -E r50k_base -l -q \
	    -o "$dir/train-pskd.tiktoken" "$corpus" || exit 1
	[ $have_hf = 1 ] && { measure hf env RAYON_NUM_THREADS=1 node "$hf" \
	    "$corpus" "$dir/train-hf.vocab" || exit 1; }
done
pt=$(median "$dir/pskd.times" 1) pm=$(median "$dir/pskd.times" 2)
echo "pskd-tok --train $N: $pt s, $((pm / 1024)) MiB peak RSS," \
    "$(echo "$bytes $pt" | awk '{ printf "%.1f", $1 / $2 / 1e6 }') MB/s"
if [ $have_hf = 1 ]; then
	ht=$(median "$dir/hf.times" 1) hm=$(median "$dir/hf.times" 2)
	echo "HF BpeTrainer $N (1 thread): $ht s, $((hm / 1024)) MiB peak RSS"
	echo "pskd-tok --train/HF BpeTrainer time: $(echo "$pt $ht" |
	    awk '{ printf "%.3f", $1 / $2 }') (goal <= 0.333)"
	echo "pskd-tok --train/HF BpeTrainer peak RSS: $(echo "$pm $hm" |
	    awk '{ printf "%.3f", $1 / $2 }') (goal <= 1)"
	# Not the same tie order (HF ranks the bytes in gpt2's character
	# order), so only a measure of how close the two vocabularies are.
	python3 - "$dir/train-pskd.tiktoken" "$dir/train-hf.vocab" <<'EOF'
import base64, sys
ours = [base64.b64decode(l.split()[0]) for l in open(sys.argv[1])][256:-1]
hf = [base64.b64decode(l) for l in open(sys.argv[2]) if l.strip()]
hf = [t for t in hf if len(t) > 1]
k = next((i for i, (a, b) in enumerate(zip(ours, hf)) if a != b), len(ours))
print("merges as HF's: the first %d of %d identical, %.1f%% the same tokens"
      % (k, len(ours), 100.0 * len(set(ours) & set(hf)) / len(ours)))
EOF
fi
# The issue's size, for the record (HF cannot be asked for it from node).
/usr/bin/time -f '%e %M' -o "$dir/time.out" pskd-tok --train 32768 \
    -E r50k_base -l -q "$corpus" > /dev/null 2>&1
echo "pskd-tok --train 32768: $(cut -d' ' -f1 "$dir/time.out") s," \
    "$(($(cut -d' ' -f2 "$dir/time.out") / 1024)) MiB peak RSS"
