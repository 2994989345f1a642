# Each rule set alone, then two in either order: the first rule a
# document fails, of the sets in the order -r names them (verdicts as
# datatrove gives them, see happy.sh).
cp "$TESTDIR/docs.jsonl" .
for r in gopher-quality gopher-repetition c4 fineweb c4,gopher-quality gopher-quality,c4; do
	pskd-filter -q -r $r --verdicts v.tsv docs.jsonl > /dev/null
	echo "-r $r:" $(cut -f 2 v.tsv)
done
