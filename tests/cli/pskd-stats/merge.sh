# Objects read back and merged are those of the concatenated input.
printf '{"text":"a"}\n{"text":"bcd"}\n' > a.jsonl
printf '{"text":""}\n' > b.jsonl
pskd-stats a.jsonl > a.json
pskd-stats b.jsonl > b.json
pskd-stats -m -l ab a.json b.json
cat a.jsonl b.jsonl | pskd-stats -l ab
cat a.json b.json | pskd-stats -m -l ab
pskd-stats -m -l ab a.jsonl b.json
