# The map-reduce and Bloom EXAMPLES of pskd-exact(1), verbatim: the same
# kept lines as one run over both shards.
cp "$TESTDIR/pages.jsonl" pages.jsonl
head -2 pages.jsonl > shard1.jsonl
tail -n +3 pages.jsonl > shard2.jsonl
pskd-exact -q shard1.jsonl shard2.jsonl > one.kept
pskd-exact -q shard1.jsonl > shard1.kept
pskd-exact --map 2 -s 0 -o m0 shard1.jsonl
pskd-exact --map 2 -s 1 -o m1 shard2.jsonl
for p in 000 001; do LC_ALL=C sort m0.units-$p m1.units-$p | pskd-exact --reduce; done | LC_ALL=C sort > repeats
pskd-exact -q --apply shard1.jsonl -s 0 repeats | cmp - shard1.kept
pskd-exact --apply shard2.jsonl -s 1 repeats | wc -c
cat repeats
cat shard1.jsonl shard2.jsonl > corpus.jsonl
pskd-exact --bloom 100M --fp-rate 0.001 corpus.jsonl > kept.jsonl
cmp kept.jsonl one.kept && echo same as the exact table
