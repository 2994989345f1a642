# pskd-verdicts(5), EXAMPLES: verdicts counted, tombstones cut back to lines.
cp "$TESTDIR/../pskd-lsh/docs.jsonl" .
pskd-shingle docs.jsonl | pskd-minhash | pskd-lsh -q --verdicts v.tsv --dropped dropped.tsv > kept.jsonl
cut -f2 v.tsv | sort | uniq -c
awk -F'\t' '$2 == "near_duplicate"' dropped.tsv | cut -f5-
