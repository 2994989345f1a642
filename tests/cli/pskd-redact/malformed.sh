# The third line's text is not a string: FILE:LINE; nothing left by -o.
printf '{"text":"a@b.example"}\n{"text":"fine"}\n{"text":[1]}\n' > bad.jsonl
pskd-redact -o out.jsonl bad.jsonl
echo "exit $?"
[ -e out.jsonl ] || echo no out.jsonl
