# A setting that is not one, or a value it does not take.
. "$TESTDIR/../lib.sh"
for s in nope=1 remove_ips=2 email_replacement= ip_replacement=a,,b gopher.min_doc_words=1; do
	no_usage pskd-redact -s "$s" < /dev/null
	echo "exit $?"
done
