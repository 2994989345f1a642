# A 2 MiB document: 299996 shingles, still 128 components.
/usr/bin/python3 -c '
import json
def w(i):
    s = ""
    while True:
        s += "abcdefghijklmnopqrstuvwxyz"[i % 26]
        i //= 26
        if i == 0:
            return s
print(json.dumps({"id": "big", "text": " ".join(w(i) for i in range(300000))}))' > big.jsonl
pskd-shingle big.jsonl | pskd-minhash | "$TESTDIR/../pskd-shingle/dump.py" --summary
