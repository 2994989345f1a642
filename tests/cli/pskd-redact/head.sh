# SIGPIPE ends it quietly.
/usr/bin/python3 -c '
for i in range(100000): print("{\"text\":\"mail u%d@example.com at 8.8.8.8\"}" % i)' > in.jsonl
pskd-redact in.jsonl | head -c1 | wc -c
