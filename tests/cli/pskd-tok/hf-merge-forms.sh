# A byte-level tokenizer.json's merges read the fast way ("a b" in the
# alphabet, no escape) and every other way give the same tables: the
# same merges written plainly, with \u escapes, and as pairs encode
# " hello" and " help" to the same ids (by hand: Ġ h, e l, el l, Ġh ell,
# Ġhell o make 256 to 260; a byte is its own id, p 112): 260, and 256 257
# 112.  Then what the fast way leaves to the general one (a second space,
# an empty part, a character outside the alphabet, one just past its
# end), and a merge it reads
# whose token the vocab lacks.
python3 - <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["PSKD_TOP"], "tests", "lib"))
from pskdtest import hello_tokenizer
vocab, merges = hello_tokenizer(True)
pre = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
       "use_regex": True}
def write(name, ms):
    doc = {"model": {"type": "BPE", "vocab": vocab, "merges": ms},
           "pre_tokenizer": pre}
    open(name, "w").write(json.dumps(doc, ensure_ascii=False))
write("plain.json", merges)
doc = json.dumps({"model": {"type": "BPE", "vocab": vocab, "merges": merges},
                  "pre_tokenizer": pre}, ensure_ascii=True)
open("escaped.json", "w").write(doc)
write("pairs.json", [m.split(" ") for m in merges])
write("twospaces.json", merges + ["Ġ  h"])
write("empty.json", merges + ["Ġhello "])
write("outside.json", merges + ["Ġ x\u0400"])
# ń (U+0144) has the alphabet's lead byte but is one past its end.
write("pastend.json", merges + ["Ġ \u0144"])
write("nottoken.json", merges + ["Ġ q"])
PY
for f in plain escaped pairs; do
	printf ' hello\n help' | pskd-tok -l --no-eot -v $f.json |
	    pskd-info -s -n all |
	    tr '\n' ' '
	echo "$f"
done
for f in twospaces empty outside pastend nottoken; do
	printf ' hello' | pskd-tok -r --no-eot -v $f.json > /dev/null
	echo "exit $?"
done
