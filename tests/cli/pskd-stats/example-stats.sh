# pskd-stats(1): the commands of its EXAMPLES, verbatim.
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
printf 'a\tkeep\nb\tnear_duplicate\ta\t0.9609\nc\tempty\n' | pskd-stats -l shard-0
printf '{"text":"One shard."}\n{"text":"Its second document."}\n' > s1.jsonl
printf '{"text":"Another shard, with more words in it."}\n' > s2.jsonl
for s in s1 s2; do pskd-tok -E cl100k_base $s.jsonl | pskd-stats -l $s > $s.json; done
pskd-stats -m -l both s1.json s2.json > merged.json
pskd-tok -E cl100k_base s1.jsonl s2.jsonl | pskd-stats -l both | cmp - merged.json
echo "cmp: $?"
pskd-stats -l s1 -l s2 s1.jsonl s2.jsonl > docs.json
cat docs.json
seq 0 129 | pskd-pack -t 'idx[100277]' | pskd-window -t 64 | pskd-pack -o train.psk.d
pskd-stats -t tokens train.psk.d
