# -f: the text from other members (several joined by a blank line, which
# fastText reads as two spaces); --id: the verdicts' names.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
cat > in.jsonl <<'IN'
{"doc":{"n":"a1"},"title":"Der Haushalt","body":"Der Ausschuss hat den Haushalt beraten."}
{"doc":{"n":"a2"},"title":"Le budget","body":null}
{"doc":{"n":"a3"},"body":"The committee met."}
IN
pskd-lid -q -m lid176 -f title,body --id doc.n --keep de,fr --verdicts v.tsv in.jsonl
cat v.tsv
printf '{"text":"Der Haushalt\\n\\nDer Ausschuss hat den Haushalt beraten."}\n' |
    pskd-lid -q -m lid176 | sed 's/.*"language"/"language"/'
