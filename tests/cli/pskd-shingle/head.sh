# SIGPIPE ends it quietly.
/usr/bin/python3 -c '
for i in range(200000): print("{\"text\":\"some words to shingle here %d\"}" % i)' > in.jsonl
pskd-shingle in.jsonl | head -c1 | wc -c
