# --rejects: each bad document goes to the file as FILE, LINE, reason and
# down the pipe as a rejected frame of a version 2 stream; the run goes on
# and exits 0.  Only bad documents: exit 1.
printf '%s\n' '{"id":"a","text":"one two three four five"}' '{"text": nope}' \
    '{"id":"c","text":null}' '{"id":"d","text":7}' '{"id":"e"}' \
    '{"id":"f","text":"one two three four five six"}' > in.jsonl
printf '{"text":"\377"}\n' >> in.jsonl
pskd-shingle --rejects rej.tsv in.jsonl | python3 "$TESTDIR/dump.py" --summary
echo "exit $?"
cat rej.tsv
printf '{"text": 1}\n' | pskd-shingle --rejects rej2.tsv > /dev/null
echo "exit $?"
cat rej2.tsv
