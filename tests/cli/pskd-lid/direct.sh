# PSKD_LID_CACHE=0: every document through fastText's own
# Dictionary::getLine (what python's predict runs) instead of the token
# cache: the same bytes, for every mode.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
cat "$TESTDIR/docs.jsonl" "$TESTDIR/docs.jsonl" > in.jsonl
printf '{"text":"a </s> b"}\n{"text":"__label__de x\\u0000y"}\n{"text":""}\n' >> in.jsonl
for flags in "-k 5" "--keep en,de -t 0.3" "--label __label__fr"; do
	pskd-lid -q -m lid176 $flags --verdicts v1 in.jsonl > o1
	PSKD_LID_CACHE=0 pskd-lid -q -m lid176 $flags --verdicts v2 in.jsonl > o2
	cmp o1 o2 && cmp v1 v2 && echo "$flags: same"
done
