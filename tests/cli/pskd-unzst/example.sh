# The EXAMPLES of pskd-unzst(1), verbatim.
cp "$TESTDIR/data/docs.jsonl" "$TESTDIR/data/docs.jsonl.zst" \
    "$TESTDIR/data/docs.jsonl.gz" .
printf '{"text": "a note"}\n' > notes.jsonl
pskd-unzst docs.jsonl.zst | head -n 1
zstd -q -c docs.jsonl | pskd-unzst | cmp - docs.jsonl
pzstd -q -c -p 2 docs.jsonl | pskd-unzst | cmp - docs.jsonl
gzip -c docs.jsonl | pskd-unzst | cmp - docs.jsonl
pskd-unzst -f docs.jsonl.zst docs.jsonl.gz notes.jsonl | wc -l
