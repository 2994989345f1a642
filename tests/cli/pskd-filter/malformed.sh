# The second line is not JSON: FILE:LINE and the byte; nothing of the
# output is left behind with -o.
printf '{"text":"fine"}\n{"text": nope}\n' > bad.jsonl
pskd-filter -o out.jsonl bad.jsonl
echo "exit $?"
[ -e out.jsonl ] || echo no out.jsonl
ls -a | grep tmp || echo no temporary
