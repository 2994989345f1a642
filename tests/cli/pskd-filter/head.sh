# SIGPIPE ends it quietly.
/usr/bin/python3 -c '
for i in range(100000): print("{\"text\":\"The words of document %d are here.\"}" % i)' > in.jsonl
pskd-filter -r url --url-blocklist /dev/null in.jsonl | head -c1 | wc -c
