# --rejects: the bad document is recorded, not written; the run goes on.
printf '{"text":"a@b.example"}\n{"text" 1}\n{"id":"c","text":"x"}\n' | pskd-redact --rejects rej.tsv --verdicts v.tsv
echo "exit $?"
cat rej.tsv v.tsv
