# pskd-exact's trimmed verdict: a kept document, with the bytes and units
# cut out of it summed (trimmed, trimmed_bytes, trimmed_units, last, only
# when a document was trimmed); exact_too_short is a drop.  The object
# read back and merged with itself doubles every count.
printf 'a\tkeep\nb\ttrimmed\t38\t2\nc\texact_too_short\t0\t1\nd\ttrimmed\t5\t1\n' > v.tsv
pskd-stats -l x v.tsv > x.json
cat x.json
pskd-stats -m -l m x.json x.json
