# The vocab and merges are read where the walk meets them when the
# pre-tokenizer and the model's affixes came before (HF's order), and
# after the walk otherwise: every order of the members gives the same
# ids (the hello tokenizers of hf-merge-forms and hf-merge-forms-chars,
# by hand: " hello" 260, " help" 256 257 112; "▁hello" 11, "▁help"
# 7 8 6).  A member given twice is refused, whatever the order (HF
# takes the last: checked by hand with npm tokenizers, which encodes
# " hello" as 260 with each of these four files).
python3 - <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["PSKD_TOP"], "tests", "lib"))
from pskdtest import hello_tokenizer
def write(name, parts):
    # parts: (key, value) in the order the file has them; a value that
    # is a list of pairs is an object in that order.
    def obj(kv):
        return "{" + ", ".join(json.dumps(k) + ": " + (obj(v) if
            isinstance(v, list) and v and isinstance(v[0], tuple) else
            json.dumps(v, ensure_ascii=False)) for k, v in kv) + "}"
    open(name, "w").write(obj(parts) + "\n")
for bl in (True, False):
    vocab, merges = hello_tokenizer(bl)
    pre = ({"type": "ByteLevel", "add_prefix_space": False,
            "trim_offsets": True, "use_regex": True} if bl else None)
    tag = "b" if bl else "c"
    unk = None if bl else "<unk>"
    def model(order):
        m = {"type": "BPE", "unk_token": unk,
             "continuing_subword_prefix": None, "end_of_word_suffix": None,
             "vocab": vocab, "merges": merges}
        return [(k, m[k]) for k in order]
    hf = ["type", "unk_token", "continuing_subword_prefix",
          "end_of_word_suffix", "vocab", "merges"]
    write(tag + "-hf.json", [("pre_tokenizer", pre), ("model", model(hf))])
    write(tag + "-model-first.json",
          [("model", model(hf)), ("pre_tokenizer", pre)])
    write(tag + "-affixes-last.json", [("pre_tokenizer", pre),
          ("model", model(["type", "unk_token", "vocab", "merges",
                           "continuing_subword_prefix",
                           "end_of_word_suffix"]))])
    write(tag + "-merges-first.json", [("pre_tokenizer", pre),
          ("model", model(hf[:4] + ["merges", "vocab"]))])
    write(tag + "-no-affixes.json", [("pre_tokenizer", pre),
          ("model", model(["type", "unk_token", "vocab", "merges"]))])
vocab, merges = hello_tokenizer(True)
pre = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
       "use_regex": True}
m = [("type", "BPE"), ("continuing_subword_prefix", None),
     ("end_of_word_suffix", None), ("vocab", vocab), ("merges", merges)]
write("pre-twice.json", [("pre_tokenizer", pre), ("model", m),
                         ("pre_tokenizer", pre)])
write("vocab-twice.json", [("pre_tokenizer", pre),
                           ("model", m + [("vocab", vocab)])])
write("merges-twice.json", [("pre_tokenizer", pre),
                            ("model", m + [("merges", merges)])])
write("prefix-twice.json", [("pre_tokenizer", pre),
                            ("model", m + [("continuing_subword_prefix",
                                            None)])])
PY
for f in hf model-first affixes-last merges-first no-affixes; do
	printf ' hello\n help' | pskd-tok -l --no-eot -v b-$f.json |
	    pskd-info -s -n all | tr '\n' ' '
	echo "b-$f"
	printf '\342\226\201hello\n\342\226\201help' |
	    pskd-tok -l --no-eot -v c-$f.json | pskd-info -s -n all |
	    tr '\n' ' '
	echo "c-$f"
done
for f in pre vocab merges prefix; do
	printf ' hello' | pskd-tok -r --no-eot -v $f-twice.json > /dev/null
	echo "exit $?"
done
