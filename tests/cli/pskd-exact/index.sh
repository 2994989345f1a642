# The index: a run leaves its state pending until --commit; --abort drops
# it; the next run drops one not committed; another grain, normalisation
# or mode is refused; a shard run again that is not as it was fails and
# leaves the index as it was.
cp "$TESTDIR/pages.jsonl" pages.jsonl
head -2 pages.jsonl > a.jsonl
tail -n +3 pages.jsonl > b.jsonl
pskd-exact -q -i idx a.jsonl > /dev/null
ls idx
pskd-exact --abort idx
ls idx
pskd-exact -q -i idx a.jsonl > /dev/null
pskd-exact -i idx a.jsonl > /dev/null && pskd-exact --commit idx
cat idx/manifest
cp idx/manifest before
pskd-exact -q -g para -i idx b.jsonl
echo "exit $?"
pskd-exact -q -n raw -i idx b.jsonl
echo "exit $?"
pskd-exact -q --bloom 100 -i idx b.jsonl
echo "exit $?"
pskd-exact -q -i idx -s 0 b.jsonl > /dev/null
echo "exit $?"
pskd-exact -q -i idx -s 5 b.jsonl > /dev/null && pskd-exact --commit idx
pskd-exact -q -i idx -s 3 b.jsonl > /dev/null
echo "exit $?"
pskd-exact -i idx -s 0 --verdicts - -o /dev/null a.jsonl
pskd-exact --commit idx && echo nothing to commit
