# No documents; and a benchmark file with no items.
printf '{"text":"one two three four five six seven eight nine ten eleven twelve thirteen"}\n' > b.jsonl
pskd-decon -b b.jsonl < /dev/null
: > none.jsonl
echo '{"text":"one two three four five six seven eight nine ten eleven twelve thirteen"}' | pskd-decon -b none.jsonl
