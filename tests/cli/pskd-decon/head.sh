printf '{"text":"a b c d e f g h i j k l m"}\n' > b.jsonl
/usr/bin/python3 -c '
for i in range(100000): print("{\"text\":\"some words of document %d and more\"}" % i)' > in.jsonl
pskd-decon -q -b b.jsonl in.jsonl | head -c1 | wc -c
