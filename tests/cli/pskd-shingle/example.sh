# The EXAMPLES of pskd-shingle(1) and pskd-frames(5), verbatim.
cp "$TESTDIR/../pskd-lsh/docs.jsonl" docs.jsonl
printf '%s\n' '{"text":"東京都庁は新宿にあります"}' '{"text":"東京都庁は新宿にあります。"}' > zh.jsonl
echo '{"text":"The Quick brown fox jumps!"}' | pskd-shingle | tail -c 8 | od -An -tx8
printf 'the quick brown fox jumps' | xxhsum -H3
pskd-shingle docs.jsonl | pskd-minhash | pskd-lsh --verdicts verdicts.tsv > kept.jsonl
cat verdicts.tsv
pskd-shingle -c 3 zh.jsonl | pskd-minhash | pskd-lsh > kept.jsonl
cat kept.jsonl
pskd-shingle < /dev/null | od -An -tx1
printf '%s\n' '{"meta": {"id": "m1"}, "title": "A", "body": {"text": "one two three four five six"}}' '{"meta": {"id": "m2"}, "title": null}' '{"meta": {"id": "m3"}, "body": {"text": "one two three four five six"}}' > mixed.jsonl
cat mixed.jsonl
pskd-shingle -f title,body.text --id meta.id --rejects rejects.tsv mixed.jsonl | pskd-minhash | pskd-lsh -q --verdicts v.tsv > kept.jsonl
cat rejects.tsv
cat v.tsv
pskd-shingle --rejects /dev/null < /dev/null | od -An -tx1 | head -1
