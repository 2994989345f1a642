# Documents instead of tokens: one line, exit 1, no file made.
printf '{"text": "a"}\n' > docs.jsonl
pskd-export -f megatron -e 9 -o out docs.jsonl
echo "exit $?"
ls -A
