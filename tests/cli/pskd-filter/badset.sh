# A setting that is not one, or a value it does not take: usage errors.
. "$TESTDIR/../lib.sh"
for s in nope=1 gopher.min_doc_words=x gopher.min_doc_words=2.5 gopher.min_doc_words=-1 c4.filter_policy=yes gopher.max_symbol_word_ratio=inf fineweb.stop_chars= gopher.min_doc_words repetition.top_17_gram=0.1; do
	no_usage pskd-filter -s "$s" < /dev/null
	echo "exit $?"
done
no_usage pskd-filter -r gopher,c4 < /dev/null; echo "exit $?"
no_usage pskd-filter -r c4,c4 < /dev/null; echo "exit $?"
no_usage pskd-filter -r url < /dev/null; echo "exit $?"
no_usage pskd-filter --url-banned /dev/null < /dev/null; echo "exit $?"
