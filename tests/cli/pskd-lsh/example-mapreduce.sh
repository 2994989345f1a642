# The map-reduce EXAMPLES of pskd-lsh(1), verbatim: the same kept lines as
# one run over both shards.
cp "$TESTDIR/docs.jsonl" docs.jsonl
head -3 docs.jsonl > shard1.jsonl
tail -n +4 docs.jsonl > shard2.jsonl
pskd-shingle shard1.jsonl | pskd-minhash > s1.sig
pskd-shingle shard2.jsonl | pskd-minhash > s2.sig
pskd-lsh --map 2 -s 1 -o s1 s1.sig
pskd-lsh --map 2 -s 2 -o s2 s2.sig
for p in 000 001; do LC_ALL=C sort s1.keys-$p s2.keys-$p | pskd-lsh --pairs > pairs-$p; done
sort -u pairs-* | pskd-lsh -q --cluster s1 s2
pskd-lsh --apply s1.verdicts s1.sig > s1.kept
pskd-lsh --apply s2.verdicts s2.sig > s2.kept
cat s1.verdicts s2.verdicts
pskd-shingle docs.jsonl | pskd-minhash | pskd-lsh -q > one.kept
cat s1.kept s2.kept | cmp - one.kept && echo same as one run
