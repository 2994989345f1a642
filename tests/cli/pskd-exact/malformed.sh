# The second line is not JSON: FILE:LINE and the byte; nothing of the
# output is left behind with -o, nor in the index.
printf '{"text":"fine"}\n{"text": nope}\n' > bad.jsonl
pskd-exact -o out.jsonl -i idx bad.jsonl
echo "exit $?"
[ -e out.jsonl ] || echo no out.jsonl
ls -a | grep tmp || echo no temporary
ls idx
# With --rejects it goes there and the run goes on.
pskd-exact -q --rejects rej.tsv --verdicts - -o /dev/null bad.jsonl
cat rej.tsv
