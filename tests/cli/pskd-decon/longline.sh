# A document of 2 MiB on one line, an item's 13 words at its very end.
/usr/bin/python3 -c '
import json
item = "the quick brown fox jumps over the lazy dog while the cat sleeps soundly"
print(json.dumps({"id": "i1", "text": item}), file=open("b.jsonl", "w"))
s = "word%d " % 7 * 300000
print(json.dumps({"id": "big", "text": s + item}))
print(json.dumps({"id": "clean", "text": s}))' > big.jsonl
wc -c < big.jsonl
pskd-decon -b b.jsonl --verdicts v.tsv big.jsonl | wc -c
cat v.tsv
