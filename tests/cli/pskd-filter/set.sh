# Thresholds by name: off, lower, a switch.
cp "$TESTDIR/docs.jsonl" .
pskd-filter -q -r gopher-quality -s gopher.min_doc_words=3 --verdicts v.tsv docs.jsonl > /dev/null
cut -f 1-4 v.tsv
pskd-filter -q -r c4 -s c4.filter_lorem_ipsum=0 -s c4.filter_curly_bracket=false --verdicts v.tsv docs.jsonl > /dev/null
cut -f 1-2 v.tsv
pskd-filter -q -r gopher-repetition -s repetition.top_2_gram=off -s repetition.top_3_gram=off -s repetition.top_4_gram=off --verdicts v.tsv docs.jsonl > /dev/null
cut -f 1-2 v.tsv
pskd-filter -q -r fineweb -s fineweb.stop_chars=. -s fineweb.short_line_thr=1 --verdicts v.tsv docs.jsonl > /dev/null
cut -f 1-2 v.tsv
