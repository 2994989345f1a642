# Every grain on the same pages: what each takes for a repeat.
for g in doc para line span:2; do
	echo "-g $g"
	pskd-exact -q -g $g -w 2 --verdicts - -o /dev/null "$TESTDIR/pages.jsonl"
done
pskd-exact -q -g span:2 -w 2 "$TESTDIR/pages.jsonl"
