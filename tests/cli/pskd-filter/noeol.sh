# A last line without a newline is a document like the others; it is
# written with one.
printf '%s' "$(head -n 1 "$TESTDIR/docs.jsonl")" | pskd-filter -r c4
echo
