# The AVX2 and the portable path give the same bytes.
/usr/bin/python3 -c '
import random
r = random.Random(1)
for i in range(2000):
    print("{\"text\":\"%s\"}" % " ".join(r.choice(["a","b","c","d","e","f","g"]) for _ in range(r.randint(0, 60))))' > in.jsonl
pskd-shingle -w 3 in.jsonl > sh
pskd-minhash -k 100 sh > a
pskd-minhash -k 100 --portable sh > b
cmp a b && echo same
