# -o FILE: the kept lines go to FILE, written to a temporary and renamed
# when the run succeeds; a run that fails leaves no FILE and no temporary.
pskd-shingle "$TESTDIR/docs.jsonl" | pskd-minhash > sig
pskd-lsh -q -o kept.jsonl sig
echo "exit $?"
cut -c 1-40 kept.jsonl
head -c 1000 sig > cut
pskd-lsh -q -o cut.jsonl cut
echo "exit $?"
ls -A
pskd-lsh -q -o /dev/full sig
echo "exit $?"
