# The url rules: a domain blocks its subdomains, the host is compared
# lowercased without user, port or final dot, a URL entry matches host and
# path, a banned substring is matched in letters and digits only.
cp "$TESTDIR/docs.jsonl" .
printf '# domains\nexample.net\n\n  casino.example  \nhttps://EXAMPLE.com/page?x=1\nfiles.example.org/pub/\n' > block.txt
printf 'c-a-s-i-n-o\n' > banned.txt
pskd-filter -q -r url --url-blocklist block.txt --verdicts v.tsv docs.jsonl > /dev/null
cat v.tsv
pskd-filter -q -r url --url-banned banned.txt --verdicts v.tsv docs.jsonl > /dev/null
cut -f 2,4 v.tsv
# another member, and documents without one pass
printf '{"id":"x","text":"a","meta":{"u":"http://a.example.net"}}\n{"id":"y","text":"b"}\n{"id":"z","text":"c","meta":{"u":7}}\n' | pskd-filter -q -r url --url-blocklist block.txt --url-field meta.u --verdicts v.tsv
cat v.tsv
