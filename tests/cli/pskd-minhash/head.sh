/usr/bin/python3 -c '
for i in range(100000): print("{\"text\":\"some words to shingle here %d\"}" % i)' > in.jsonl
pskd-shingle in.jsonl > sh
pskd-minhash sh | head -c1 | wc -c
