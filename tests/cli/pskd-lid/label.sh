# Any label's probability (--label, the DCLM use), here lid.176's
# English: every label is predicted, none pruned, so en-1's is lid.176's
# top score again and ja-1 gets English's 4.6e-06, which python's
# predict(k=-1) leaves out.  --min keeps it at the threshold or above.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
pskd-lid -q -m lid176 --label __label__en "$TESTDIR/docs.jsonl" |
    sed 's/^{"id":"\([^"]*\)".*,"en_score":/\1 /'
echo "-- --min 0.4455817639827728 (en-2's own score) --as english"
pskd-lid -q -m lid176 --label en --min 0.4455817639827728 --as english \
    --verdicts v.tsv "$TESTDIR/docs.jsonl" | sed 's/^{"id":"\([^"]*\)".*,"english":/\1 /'
cat v.tsv
