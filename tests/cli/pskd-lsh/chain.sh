# No transitive chains: B is A with 7 words changed, C is B with 7 other
# words changed.  Exact J(A,B) = J(B,C) = 0.838, J(A,C) = 0.700; with
# k = 512 (sigma 0.016) B is dropped as a copy of A, and C, compared with
# kept documents only, is kept although it is as close to the dropped B.
/usr/bin/python3 -c '
import json, random
r = random.Random(5)
V = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)) for _ in range(5000)]
a = [r.choice(V) for _ in range(400)]
b = list(a)
for i in range(30, 400, 60): b[i] = r.choice(V)
c = list(b)
for i in range(60, 400, 60): c[i] = r.choice(V)
c[5] = r.choice(V)
for n, t in (("A", a), ("B", b), ("C", c)):
    print(json.dumps({"id": n, "text": " ".join(t)}))' > docs.jsonl
pskd-shingle docs.jsonl | pskd-minhash -k 512 |
    pskd-lsh -q -b 128 -r 4 --verdicts v.tsv > /dev/null
cat v.tsv
