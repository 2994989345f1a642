# Several text members: each redacted, the turn going on from one to the
# next in -f's order; a member not named stays.
cp "$TESTDIR/docs.jsonl" .
sed -n 6p docs.jsonl | pskd-redact -f title,text
sed -n 6p docs.jsonl | pskd-redact -f text,title
sed -n 6p docs.jsonl | pskd-redact
