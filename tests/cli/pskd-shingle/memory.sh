# -m: a document that would take more is one line naming it, exit 1, for
# a line longer than -m, one whose line and text are, one whose normalised
# text is, and one whose shingles take it past; with --rejects a TSV line
# and a rejected frame, and the run goes on (dump.py shows the frames).
python3 -c 'print("{\"id\": \"big\", \"text\": \"" + "word " * 400 + "\"}")' > big.jsonl
head -2 "$TESTDIR/docs.jsonl" > docs.jsonl
cat big.jsonl >> docs.jsonl
for m in 1K 3K 5K 12K 16K; do
	pskd-shingle -m $m docs.jsonl > /dev/null
	echo "-m $m: exit $?"
done
pskd-shingle -m 5K --rejects rej.tsv docs.jsonl | python3 "$TESTDIR/dump.py" --summary
cat rej.tsv
