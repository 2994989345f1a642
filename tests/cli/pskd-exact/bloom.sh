# --bloom: the verdicts of the exact table here; -v states the filter; an
# index of it, run again, gets its verdicts from its record.
cp "$TESTDIR/pages.jsonl" pages.jsonl
pskd-exact -q --verdicts exact.tsv -o /dev/null pages.jsonl
pskd-exact -v --bloom 1000 --fp-rate 0.01 --verdicts bloom.tsv -o /dev/null pages.jsonl
cmp exact.tsv bloom.tsv && echo same verdicts
pskd-exact -q --bloom 1000 -i idx pages.jsonl > /dev/null && pskd-exact --commit idx
ls idx
pskd-exact --bloom 1000 -i idx -s 0 --verdicts - -o /dev/null pages.jsonl
