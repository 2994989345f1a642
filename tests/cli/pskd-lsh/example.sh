# The EXAMPLES of pskd-lsh(1), verbatim (in bash, for pipefail).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
cp "$TESTDIR/docs.jsonl" docs.jsonl
pskd-shingle docs.jsonl | pskd-minhash | pskd-lsh --verdicts v.tsv --dropped dropped.tsv > kept.jsonl
cut -f 1-4 dropped.tsv
head -3 docs.jsonl > shard1.jsonl
tail -n +4 docs.jsonl > shard2.jsonl
set -o pipefail
for s in shard1 shard2; do pskd-shingle $s.jsonl | pskd-minhash | pskd-lsh -q -i index > $s.kept && pskd-lsh --commit index; done
cat shard1.kept shard2.kept | cmp - kept.jsonl && echo same as one run
pskd-shingle shard1.jsonl | pskd-minhash | pskd-lsh -i index -s 0 -o again.kept
cmp shard1.kept again.kept
cp shard1.jsonl mirror.jsonl
pskd-shingle mirror.jsonl | pskd-minhash | pskd-lsh -i index > mirror.kept && pskd-lsh --commit index
wc -c < mirror.kept
