# pskd-unzst(1): the commands of its EXAMPLES, verbatim.
cp "$TESTDIR/data/docs.jsonl" "$TESTDIR/data/docs.jsonl.zst" \
    "$TESTDIR/data/docs.jsonl.gz" .
printf '{"text": "a note"}\n' > notes.jsonl
pskd-unzst docs.jsonl.zst | head -n 1
zstd -q -c docs.jsonl | pskd-unzst | cmp - docs.jsonl
pzstd -q -c -p 2 docs.jsonl | pskd-unzst | cmp - docs.jsonl
gzip -c docs.jsonl | pskd-unzst | cmp - docs.jsonl
xz -c docs.jsonl | pskd-unzst | cmp - docs.jsonl
bzip2 -c docs.jsonl | pskd-unzst | cmp - docs.jsonl
bash -o pipefail -c 'pskd-unzst docs.jsonl.zst | wc -l'
pskd-unzst -H docs.jsonl.zst | wc -l
pskd-unzst -f docs.jsonl.zst docs.jsonl.gz notes.jsonl | wc -l
for i in 1 2 3 4 5 6; do zstd -q -c docs.jsonl; done > big.zst
pskd-unzst -s 4 big.zst > ranges
while read r; do pskd-unzst -r "$r" big.zst; done < ranges > joined
pskd-unzst big.zst | cmp - joined
cat ranges
wc -l < joined
