# pskd-report(1): the commands of its EXAMPLES, verbatim, on two small
# shards made here: their verdicts, tokens and windows.
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
mkdir shards
printf '{"version": 1, "shards": [\n{"url": "file:///s1.jsonl", "file": "s1.jsonl", "bytes": 40, "sha256": null, "etag": null, "status": "pending"},\n{"url": "file:///s2.jsonl", "file": "s2.jsonl", "bytes": 20, "sha256": null, "etag": null, "status": "pending"}\n]}\n' > shards/manifest.json
printf '{"text":"The first shard, its first document."}\n{"text":"And its second one."}\n' > s1.jsonl
printf '{"text":"A second shard."}\n' > s2.jsonl
printf 'a\tkeep\nb\tkeep\n' > s1.verdicts
printf 'c\tkeep\nd\tnear_duplicate\ta\t0.9\n' > s2.verdicts
for s in s1 s2; do pskd-tok -E cl100k_base $s.jsonl > $s.psk.d; done
pskd-pack s1.psk.d s2.psk.d | pskd-window -t 8 | pskd-pack -o train.psk.d
mkdir stats
for s in s1 s2; do pskd-stats $s.verdicts $s.psk.d > stats/$s.json; done
pskd-stats train.psk.d > stats/train.json
pskd-shuffle -s 42 -n 1 train.psk.d | pskd-info -s | sed 's/^\[\[//; s/\],.*//' | tr , '\n' | pskd-pack -t 'idx[100277]' | pskd-tok -d -E cl100k_base > window.txt
pskd-report -o report.html -w window.txt shards/manifest.json stats
ls report.*
# Each shard's verdicts in the JSON; the window's 8 tokens are text.
grep -o '"name":"[^"]*","file":"[^"]*","bytes":[0-9]*,"status":"[a-z]*","documents":[0-9]*,"kept":[0-9]*,"near_duplicates":[0-9]*' report.json
grep -c . window.txt
