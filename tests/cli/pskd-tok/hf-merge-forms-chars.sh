# hf-merge-forms for a vocabulary of characters (Llama 2's kind): its
# names and merges read the fast way (no escape) and the general one
# (\u escapes) make the same tables, whether the merges are "a b" or
# pairs.  By hand: <unk> 0, ▁ 1, h e l o p 2 to 6, and the merges' tokens
# ▁h el ell ▁hell ▁hello 7 to 11; "▁hello" is 11, "▁help" 7 8 6.  Then a
# merge with a second space, one with an empty part, one of a token the
# vocab lacks.
python3 - <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["PSKD_TOP"], "tests", "lib"))
from pskdtest import hello_tokenizer
vocab, merges = hello_tokenizer(False)
def doc(ms, ascii=False):
    return json.dumps({"model": {"type": "BPE", "vocab": vocab,
                                 "merges": ms, "unk_token": "<unk>"}},
                      ensure_ascii=ascii)
open("plain.json", "w").write(doc(merges))
open("escaped.json", "w").write(doc(merges, True))
open("pairs.json", "w").write(doc([m.split(" ") for m in merges]))
open("twospaces.json", "w").write(doc(merges + ["h  e"]))
open("empty.json", "w").write(doc(merges + ["h "]))
open("nottoken.json", "w").write(doc(merges + ["h e"]))
PY
for f in plain escaped pairs; do
	printf '\342\226\201hello\n\342\226\201help' |
	    pskd-tok -l --no-eot -v $f.json | pskd-info -s -n all | tr '\n' ' '
	echo "$f"
done
for f in twospaces empty nottoken; do
	printf 'he' | pskd-tok -r --no-eot -v $f.json > /dev/null
	echo "exit $?"
done
