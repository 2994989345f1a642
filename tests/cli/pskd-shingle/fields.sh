# -f title,a.b.c joins the members with a blank line: the same shingles as
# one text member holding them so joined.  --id takes a nested string or
# number; without one the document is FILE:LINE.  A malformed -f is a
# usage error.
printf '%s\n' '{"id":"x","meta":{"id":"m","n":5,"body":{"text":"alpha beta gamma delta epsilon zeta"}},"title":"Title words here"}' > in.jsonl
printf '%s\n' '{"text":"Title words here\n\nalpha beta gamma delta epsilon zeta"}' > joined.jsonl
pskd-shingle -f title,meta.body.text --id meta.id in.jsonl | python3 "$TESTDIR/dump.py" > a
pskd-shingle joined.jsonl | python3 "$TESTDIR/dump.py" > b
sed -n 2p a | cut -c 1-20
grep -c '^  ' a
tail -n +3 a > a.values
tail -n +3 b > b.values
cmp a.values b.values && echo "the same shingles as the joined text"
pskd-shingle -f meta.body.text --id meta.n in.jsonl | python3 "$TESTDIR/dump.py" --summary
pskd-shingle -f meta.body.text --id meta.nope in.jsonl | python3 "$TESTDIR/dump.py" --summary
pskd-shingle -f meta.body.text in.jsonl | python3 "$TESTDIR/dump.py" --summary
pskd-shingle -f 'title,,text' in.jsonl 2> err > /dev/null
echo "exit $?"
head -n 1 err
