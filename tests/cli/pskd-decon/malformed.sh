# A document line that is not JSON: FILE:LINE and the byte, nothing of
# the output left behind; with --rejects it goes there.  A benchmark line
# that is not JSON, or lacks its members: FILE:LINE, before any document.
printf '{"text":"a b c d e f g h i j k l m"}\n' > b.jsonl
printf '{"text":"fine"}\n{"text": nope}\n' > bad.jsonl
pskd-decon -b b.jsonl -o out.jsonl bad.jsonl
echo "exit $?"
[ -e out.jsonl ] || echo no out.jsonl
pskd-decon -q -b b.jsonl --rejects rej.tsv bad.jsonl
cat rej.tsv
printf '{"text":"a b"}\n{"text":\n' > badb.jsonl
pskd-decon -b badb.jsonl < /dev/null
echo "exit $?"
printf '{"text":"a b"}\n{"other":"c"}\n' > nomember.jsonl
pskd-decon -b nomember.jsonl < /dev/null
echo "exit $?"
pskd-decon -b missing.jsonl < /dev/null
echo "exit $?"
