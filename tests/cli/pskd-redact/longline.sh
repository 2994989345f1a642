# A document of 2 MiB on one line, 100000 addresses, replaced in turn.
/usr/bin/python3 -c '
import json
print(json.dumps({"id": "big", "text": " ".join("host%d.example has 8.8.%d.%d;" % (i, i // 250 % 250, i % 250) for i in range(100000))}))' > big.jsonl
wc -c < big.jsonl
pskd-redact big.jsonl | /usr/bin/python3 -c '
import collections, json, re, sys
t = json.loads(sys.stdin.read())["text"]
print(collections.Counter(re.findall(r"[0-9.]+(?=;)", t)).most_common())'
