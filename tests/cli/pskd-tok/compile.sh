# pskd-tok --compile: a tokenizer.json's tables in a file pskd-tok loads
# instead of the JSON, with the same ids.  The "hello" tokenizers of
# hf-merge-forms and hf-merge-forms-chars (pskdtest.py): byte-level
# (" hello" 260, " help" 256 257 112 by hand), its vocab after its merges;
# and of characters ("▁hello" 11, "▁help" 7 8 6).  Each compiled file encodes and decodes as its
# JSON; it is read from a FIFO too.  Then what is refused: a file cut
# short, one byte changed, another build's file, a file compiled already,
# a vocabulary that is not a tokenizer.json, input files or encoding
# options; and a refused compile leaves no -o file behind.
python3 - <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["PSKD_TOP"], "tests", "lib"))
from pskdtest import hello_tokenizer
vocab, merges = hello_tokenizer(True)
pre = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
       "use_regex": True}
open("bytes.json", "w").write(json.dumps(
    {"model": {"type": "BPE", "merges": merges, "vocab": vocab},
     "pre_tokenizer": pre, "decoder": pre}, ensure_ascii=False))
vocab, merges = hello_tokenizer(False)
open("chars.json", "w").write(json.dumps(
    {"model": {"type": "BPE", "vocab": vocab, "merges": merges,
               "unk_token": "<unk>"}}, ensure_ascii=False))
PY
printf ' hello\n help\n' > bytes.txt
printf '\342\226\201hello\n\342\226\201help\n' > chars.txt
for f in bytes chars; do
	pskd-tok --compile -v $f.json -o $f.pskc || echo "exit $?"
	pskd-tok -l --no-eot -v $f.json $f.txt > json.psk
	pskd-tok -l --no-eot -v $f.pskc $f.txt > compiled.psk
	cmp json.psk compiled.psk && pskd-info -s -n all compiled.psk |
	    tr '\n' ' ' && echo "$f compiled"
	mkfifo $f.fifo
	cat $f.pskc > $f.fifo &
	pskd-tok -l --no-eot -v $f.fifo $f.txt | pskd-info -s -n all |
	    tr '\n' ' '
	wait
	echo "from a FIFO"
	pskd-tok -d -v $f.json json.psk > json.txt
	pskd-tok -d -v $f.pskc compiled.psk | cmp - json.txt && cat json.txt
	echo
done
# Cut short, a byte of its tables changed, another build's (its version).
head -c 5000 bytes.pskc > cut.pskc
cp bytes.pskc flip.pskc
printf 'X' | dd of=flip.pskc bs=1 seek=4000 conv=notrunc 2> /dev/null
cp bytes.pskc other.pskc
printf '\377' | dd of=other.pskc bs=1 seek=8 conv=notrunc 2> /dev/null
for f in cut flip other; do
	pskd-tok -l -v $f.pskc bytes.txt 2>&1
	echo "exit $?"
done
pskd-tok --compile -v bytes.pskc -o again.pskc 2>&1
echo "exit $?"
pskd-tok --compile -E cl100k_base -o tiktoken.pskc 2>&1
echo "exit $?"
ls again.pskc tiktoken.pskc 2>&1 | sed 's/.*cannot access/cannot access/'
pskd-tok --compile -v bytes.json bytes.txt > /dev/null 2>&1
echo "exit $?"
pskd-tok --compile -l -v bytes.json > /dev/null 2>&1
echo "exit $?"
