# pskd(7): the pipeline of its EXAMPLES, verbatim, on one shard of the
# bundled corpus fetched from a file:// URL.
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
mkdir src
cp "$TESTDIR/../../../examples/corpus/sotu-001.jsonl.zst" src/part-000.jsonl.zst
echo "file://$PWD/src/part-000.jsonl.zst" > urls.txt
pskd-get -q -d shards urls.txt
pskd-get --verify -d shards
pskd-unzst shards/part-000.jsonl.zst | pskd-shingle | pskd-minhash | pskd-lsh -q > kept.jsonl
pskd-tok -E cl100k_base kept.jsonl | pskd-window -t 64 | pskd-pack -o train.psk.d
pskd-shuffle -s 42 -e 1 -B 4 -n 1 train.psk.d | pskd-info -n 0
# The shard's documents, and those kept: the 4 planted repeats go, and
# one of the two copies (exact and restyled) of 1835-jackson-01.
zstd -dc src/part-000.jsonl.zst | wc -l
wc -l < kept.jsonl
zstd -dc src/part-000.jsonl.zst | grep -c '"planted": "again"'
