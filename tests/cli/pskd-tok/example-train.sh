# The TRAINING example of pskd-tok(1), verbatim, on the paragraphs of the
# GPL-3 and Apache-2.0 texts as JSON Lines documents.
# 224 windows = 1 + (14377 - 65) div 64: the 14377 tokens (documents and
# their <|endoftext|>) counted by a Python encoder of the ranks, as in
# tests/t/train-roundtrip.  The ranks= line is xxhsum -H3 of the ranks
# file (tests/t/train-commit checks that the two agree).
python3 -c '
import json
for n in ["GPL-3", "Apache-2.0"]:
    for p in open("/usr/share/common-licenses/" + n).read().split("\n\n"):
        if p.strip():
            print(json.dumps({"text": p}))' > docs.jsonl
pskd-tok --train 1000 -o vocab.tiktoken docs.jsonl
cat vocab.tiktoken.special
pskd-tok -v vocab.tiktoken docs.jsonl | pskd-window -t 64 | pskd-pack -o train.psk.d
pskd-info train.psk.d | sed -n 2,3p
