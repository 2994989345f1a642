# A document of 2 MiB on one line: 300000 distinct words of letters, so
# 299996 distinct 5-grams.
/usr/bin/python3 -c '
import json
def w(i):
    s = ""
    while True:
        s += "abcdefghijklmnopqrstuvwxyz"[i % 26]
        i //= 26
        if i == 0:
            return s
print(json.dumps({"id": "big", "text": " ".join(w(i) for i in range(300000))}))
print(json.dumps({"id": "small", "text": "after it"}))' > big.jsonl
pskd-shingle big.jsonl | "$TESTDIR/dump.py" --summary
