# The EXAMPLES of pskd-minhash(1), verbatim.
cp "$TESTDIR/../pskd-lsh/docs.jsonl" docs.jsonl
pskd-shingle docs.jsonl | pskd-minhash -a oph | pskd-lsh --verdicts verdicts.tsv > kept.jsonl
cat verdicts.tsv
pskd-shingle docs.jsonl > shingles
pskd-minhash shingles > a.sig
pskd-minhash --portable shingles | cmp - a.sig
echo $?
