# -t without --keep: any language whose top score is over 0.99 (fr-1 at
# 0.99070, ru-1 at 0.99293, ja-1 at 0.99995); over, not equal: a threshold
# of ja-1's own score drops it.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
pskd-lid -q -m lid176 -t 0.99 --no-annotate --verdicts v.tsv "$TESTDIR/docs.jsonl"
cat v.tsv
sed -n 6p "$TESTDIR/docs.jsonl" |
    pskd-lid -q -m lid176 -t 0.9999500513076782 --verdicts v2.tsv
cat v2.tsv
