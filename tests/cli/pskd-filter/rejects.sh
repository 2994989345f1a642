# --rejects: bad documents to the file, a "rejected" verdict, the run
# goes on; with only bad documents, exit 1.
printf '%s\n' '{"id":"a","text":"x"}' '{"text": nope}' '{"id":"c","text":7}' > in.jsonl
pskd-filter -r fineweb --rejects rej.tsv --verdicts v.tsv --dropped d.tsv in.jsonl
echo "exit $?"
cat rej.tsv v.tsv d.tsv
printf '{"text": 1}\n' | pskd-filter --rejects rej2.tsv
echo "exit $?"
