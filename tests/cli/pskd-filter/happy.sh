# The default rule sets, FineWeb's order (gopher-repetition, gopher-quality,
# c4, fineweb): each verdict is the one datatrove 0.10.0's filters give
# these documents (checked with tests/data/filter/make-fixtures.py's
# filters and pskd's segmentation); the kept lines byte for byte.
cp "$TESTDIR/docs.jsonl" .
pskd-filter --verdicts v.tsv --dropped d.tsv docs.jsonl > kept.jsonl
head -n 1 docs.jsonl | cmp - kept.jsonl && echo kept: good
cat v.tsv
cut -f 1-4 d.tsv
tail -n +2 docs.jsonl > rest.jsonl
cut -f 5- d.tsv | cmp - rest.jsonl && echo "dropped: all but the first, as they came"
