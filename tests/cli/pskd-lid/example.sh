# The EXAMPLES of pskd-lid(1), verbatim.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
need fasttext
cp "$TESTDIR/docs.jsonl" "$TESTDIR/quality.txt" "$TESTDIR/quality-docs.jsonl" .
printf '{"text":"Der Ausschuss hat den Haushalt beraten."}\n' | pskd-lid -q -m lid176
pskd-lid -q -m lid176 --keep en,de --verdicts v.tsv --dropped dropped.tsv docs.jsonl > kept.jsonl
cut -f 2 v.tsv | sort | uniq -c
cut -f 1-4 dropped.tsv | head -n 2
fasttext supervised -input quality.txt -output quality -dim 16 -epoch 50 -lr 0.5 -wordNgrams 2 -bucket 10000 -thread 1 -seed 1 -verbose 0
pskd-lid -q -m quality.bin --label hq --min 0.5 --verdicts qv.tsv quality-docs.jsonl > good.jsonl
cut -f 1,2 qv.tsv
