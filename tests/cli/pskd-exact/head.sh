/usr/bin/python3 -c '
for i in range(100000): print("{\"text\":\"line %d\\nfooter\"}" % i)' > in.jsonl
pskd-exact -q in.jsonl | head -c1 | wc -c
