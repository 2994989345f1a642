# FineWeb's filter: English and German above 0.65; a verdict for each
# document, the dropped ones with their line.  en-2 is English at 0.4456.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
pskd-lid -q -m lid176 --keep en,de --verdicts v.tsv --dropped d.tsv \
    "$TESTDIR/docs.jsonl"
echo "-- verdicts"
cat v.tsv
echo "-- dropped"
cut -f 1-4 d.tsv
grep -v '"id":"en-1"\|"id":"de-1"' "$TESTDIR/docs.jsonl" > want
cut -f 5- d.tsv | cmp - want && echo "dropped lines as they came"
