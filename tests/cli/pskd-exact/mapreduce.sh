# The map-reduce's inputs checked: unit lines out of order, repeat lines
# that are not, a repeat past the shard's documents.
cp "$TESTDIR/pages.jsonl" pages.jsonl
pskd-exact --map 1 -s 0 -o m pages.jsonl
sort -r m.units-000 | pskd-exact --reduce
echo "exit $?"
echo "nonsense" | pskd-exact --reduce
echo "exit $?"
LC_ALL=C sort m.units-000 | pskd-exact --reduce > r
head -1 pages.jsonl > one.jsonl
pskd-exact --apply one.jsonl -s 0 r
echo "exit $?"
echo "0000000000 x" > bad
pskd-exact --apply pages.jsonl -s 0 bad
echo "exit $?"
