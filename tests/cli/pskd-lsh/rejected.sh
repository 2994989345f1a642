# A document pskd-shingle rejected (--rejects) gets the verdict rejected:
# not written, in the tombstones with its line, counted.
printf '%s\n' '{"id":"a","text":"one two three four five six"}' 'oops' \
    '{"id":"c","text":"one two three four five six"}' > in.jsonl
pskd-shingle --rejects rej.tsv in.jsonl 2> /dev/null | pskd-minhash |
    pskd-lsh --verdicts v.tsv --dropped d.tsv
cat v.tsv d.tsv
