# A 2 MiB document twice: the second is dropped, the first passes whole.
/usr/bin/python3 -c '
import json
def w(i):
    s = ""
    while True:
        s += "abcdefghijklmnopqrstuvwxyz"[i % 26]
        i //= 26
        if i == 0:
            return s
t = " ".join(w(i) for i in range(300000))
print(json.dumps({"id": "big", "text": t}))
print(json.dumps({"id": "again", "text": t}))' > big.jsonl
pskd-shingle big.jsonl | pskd-minhash | pskd-lsh --verdicts v.tsv > kept
head -1 big.jsonl | cmp - kept && echo kept whole
cat v.tsv
