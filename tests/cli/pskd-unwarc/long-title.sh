# A 7 MB title and 25000 headings not in it: a heading is looked for in a
# title of at most 4096 bytes only (each search read the whole title: 23 s
# before).  The headings stay; the title is the title member, whole.
python3 -c "import sys; sys.stdout.write('<html><head><title>' + 'T' * 7000000 + '</title></head><body>' + '<h2>U</h2><p>some text of a paragraph to keep</p>' * 25000)" > t.html && { printf 'WARC/1.0\r\nWARC-Type: resource\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n' $(wc -c < t.html); cat t.html; printf '\r\n\r\n'; } | timeout 60 pskd-unwarc -m 100M | python3 -c "import json, sys; d = json.load(sys.stdin); print(len(d['title']), d['text'].count('U\n'), d['text'][:60].replace('\n', '|'))"
