# Drop, flag, -n, --normalize: a benchmark of two items against four
# documents (d2 holds the first item's words in capitals and with other
# punctuation; d3 a line of the second's; d4 nine words of the third's).
cp "$TESTDIR/bench/grade_school_math/data/test.jsonl" gsm8k.jsonl
for args in "" "-n 9" "--normalize none" "-n 9 -f id"; do
	echo "args: $args"
	pskd-decon -q $args -F question,answer -b gsm8k.jsonl --verdicts - -o /dev/null "$TESTDIR/docs.jsonl"
done
pskd-decon --flag -F question,answer -b gsm8k.jsonl --dropped dropped.tsv --summary sum.tsv "$TESTDIR/docs.jsonl"
cat sum.tsv
wc -c < dropped.tsv
