# A byte-level merge given twice takes its later rank, as HF's map of
# merges does, whether the merges come in the order of the tokens they
# make (read as they are: hf-load-model.c's tables) or not (sorted by
# token).  Bytes 0-255, then ab 256, bc 257, abc 258.  Out of order,
# "b c" at ranks 0 and 3: "a b" (rank 1) merges first, so "abc" is
# 256 99, where the earlier rank would make 258.  In order, "a bc" at
# ranks 2 and 4 beside "ab c" at 3.  Each line's ids checked by hand
# and with npm tokenizers (the same for all six).
python3 - <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["PSKD_TOP"], "tests", "lib"))
from pskdtest import byte_char
pre = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
       "use_regex": True}
def write(name, merges):
    vocab = {byte_char(b): b for b in range(256)}
    vocab.update({"ab": 256, "bc": 257, "abc": 258})
    open(name, "w").write(json.dumps(
        {"model": {"type": "BPE", "vocab": vocab, "merges": merges},
         "pre_tokenizer": pre, "decoder": pre}, ensure_ascii=False))
write("unsorted.json", ["b c", "a b", "a bc", "b c"])
write("sorted.json", ["a b", "b c", "a bc", "ab c", "a bc"])
PY
for f in unsorted sorted; do
	pskd-tok --compile -v $f.json -o $f.pskc || echo "exit $?"
	for t in abc abcab bcabc; do
		printf '%s' $t | pskd-tok -l --no-eot -v $f.json |
		    pskd-info -s -n all | tr '\n' ' '
		printf '%s' $t | pskd-tok -l --no-eot -v $f.pskc |
		    pskd-info -s -n all | tr '\n' ' '
		echo "$f $t"
	done
done
