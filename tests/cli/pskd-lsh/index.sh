# A persistent index: the second shard is deduplicated against the first;
# each run left pending, then committed.
cp "$TESTDIR/docs.jsonl" .
head -3 docs.jsonl > one.jsonl
tail -n +4 docs.jsonl > two.jsonl
for s in one two; do
	pskd-shingle $s.jsonl | pskd-minhash |
	    pskd-lsh -i idx --verdicts $s.tsv > $s.kept
	ls idx | grep pending
	pskd-lsh --commit idx
done
cat one.tsv two.tsv
cat idx/manifest
ls idx
