/usr/bin/python3 -c '
for i in range(100000): print("{\"text\":\"some words to shingle here %d\"}" % i)' > in.jsonl
pskd-shingle in.jsonl | pskd-minhash > sig
pskd-lsh -q sig | head -c1 | wc -c
