# A document of 2 MiB on one line, 30,000 lines of text: its repeated
# lines go, the first of each stays; the same document again is dropped.
/usr/bin/python3 -c '
import json
s = "".join("line %d of the page\nthe same footer\n" % (i % 15000) for i in range(30000))
print(json.dumps({"id": "big", "text": s}))
print(json.dumps({"id": "again", "text": s}))' > big.jsonl
wc -c < big.jsonl
pskd-exact -n raw --verdicts v.tsv big.jsonl > kept
cat v.tsv
/usr/bin/python3 -c '
import json
t = json.loads(open("kept").readline())["text"]
want = "".join("line %d of the page\n" % i for i in range(15000))
print("cut as expected" if t == "line 0 of the page\nthe same footer\n" + want[len("line 0 of the page\n"):] else "not as expected")'
