# A document of 2 MiB on one line, kept byte for byte.
/usr/bin/python3 -c '
import json
s = "The boat went down the river and the men sang all the way to the sea.\n"
print(json.dumps({"id": "big", "text": s * 30000}))' > big.jsonl
pskd-filter -r c4 --verdicts v.tsv big.jsonl | cmp - big.jsonl && cat v.tsv
wc -c < big.jsonl
