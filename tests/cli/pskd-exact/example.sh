# The EXAMPLES of pskd-exact(1), verbatim (in bash, for pipefail).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
cp "$TESTDIR/pages.jsonl" pages.jsonl
pskd-exact --verdicts v.tsv pages.jsonl > kept.jsonl
cat v.tsv
cut -c 1-60 kept.jsonl
pskd-exact -g doc pages.jsonl > /dev/null
head -2 pages.jsonl > shard1.jsonl
tail -n +3 pages.jsonl > shard2.jsonl
set -o pipefail
for s in shard1 shard2; do pskd-exact -q -i index $s.jsonl > $s.kept && pskd-exact --commit index; done
cat shard1.kept shard2.kept | cmp - kept.jsonl && echo same as one run
pskd-exact -q -i index -s 0 shard1.jsonl | cmp - shard1.kept
cp shard1.jsonl mirror.jsonl
pskd-exact -i index mirror.jsonl > mirror.kept && pskd-exact --commit index
wc -c < mirror.kept
