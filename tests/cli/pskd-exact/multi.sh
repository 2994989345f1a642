# Two text members, each cut on its own; the other members of the line as
# they were, escapes and all; a member named twice counts once.
printf '%s\n' '{"id":"a","title":"Menu","text":"Menu\nfirst page","x":"\u00e9"}' \
    '{"id":"b","title":"Menu","text":"Menu\nsecond page\ttab","x":"\u00e9"}' > m.jsonl
pskd-exact -q -f title,text,title --verdicts v.tsv m.jsonl
cat v.tsv
