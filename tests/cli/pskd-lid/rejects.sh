# --rejects: bad documents are recorded, get the verdict "rejected", and
# the run goes on.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
printf '{"text":"Der Ausschuss"}\n{"text":"caf\351"}\n{"title":"no text"}\n{"text":"Der Ausschuss"}\n' |
    pskd-lid -q -m lid176 --keep de --rejects rej.tsv --verdicts v.tsv
cat rej.tsv v.tsv
