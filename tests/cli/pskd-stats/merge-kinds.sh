printf '{"text":"a"}\n' > d.jsonl
printf 'a\tkeep\n' > v.tsv
pskd-stats -m d.jsonl v.tsv
