# Settings for one language: the documents whose "language" member is it
# get them on top of the plain ones; the others, and those without the
# member, the plain ones.
printf '%s\n' '{"id":"de","language":"de","text":"der die und das ist gut so und der hund"}' \
    '{"id":"en","language":"en","text":"der die und das ist gut so und der hund"}' \
    '{"id":"none","text":"der die und das ist gut so und der hund"}' \
    '{"id":"num","language":7,"text":"der die und das ist gut so und der hund"}' > docs.jsonl
pskd-filter -r gopher-quality -s de:gopher.stop_words=der,die,und -s gopher.min_doc_words=5 --verdicts v.tsv docs.jsonl
cat v.tsv
pskd-filter --settings -s de:gopher.min_doc_words=4 -s gopher.min_doc_words=5 | grep min_doc_words
. "$TESTDIR/../lib.sh"
no_usage pskd-filter -s de:nope=1 < /dev/null; echo "exit $?"
no_usage pskd-filter -s 'd e:gopher.min_doc_words=1' < /dev/null; echo "exit $?"
