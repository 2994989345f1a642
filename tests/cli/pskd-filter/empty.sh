# No documents: no output, empty verdicts.
pskd-filter --verdicts v.tsv < /dev/null
wc -c < v.tsv
