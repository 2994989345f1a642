# Settings: every address, replacements of one's own (a quote in one is
# escaped), no emails.
cp "$TESTDIR/docs.jsonl" .
sed -n 3p docs.jsonl | pskd-redact -s only_remove_public_ips=0 -s ip_replacement='0.0.0.0,"ip"'
sed -n 1p docs.jsonl | pskd-redact -s remove_emails=0 -s ip_replacement=x
sed -n 1p docs.jsonl | pskd-redact -s remove_ips=false -s email_replacement=a@b.example
pskd-redact --settings
