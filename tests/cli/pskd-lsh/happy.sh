# b is a with its last word changed (exact J 35/37 = 0.946), e is a in
# capitals with punctuation (J 1), f shares no 5-gram with a, g is the
# first half of c (J 0.444), d is empty.
pskd-shingle "$TESTDIR/docs.jsonl" | pskd-minhash |
    pskd-lsh --verdicts v.tsv --dropped dropped.tsv
echo "-- verdicts"
cat v.tsv
echo "-- dropped"
cut -c 1-60 dropped.tsv
