# The second EXAMPLES of pskd-export(1), verbatim, on 300 documents.
. "$TESTDIR/../lib.sh"
need_vocab r50k_base.tiktoken
awk 'BEGIN { for (i = 1; i <= 300; i++) printf "{\"text\": \"document %d of the corpus: %s\"}\n", i, substr("abcdefghij", 1 + i % 10) }' > docs.jsonl
pskd-tok -E gpt2 docs.jsonl | pskd-pack -o tokens.psk.d
pskd-export -f megatron -E gpt2 --val-docs 100 -o data/owt tokens.psk.d > megatron.json
pskd-export -f nanogpt -E gpt2 --val-docs 100 -o nanoGPT/data/owt tokens.psk.d > nanogpt.json
pskd-export -f llmc -E gpt2 --val-docs 100 -o llm.c/owt tokens.psk.d > llmc.json
pskd-export --check -f llmc -E gpt2 --val-docs 100 llm.c/owt tokens.psk.d > /dev/null
echo "check: $?"
# 300 documents: 200 to train, 100 to validation, in each format.
for f in megatron nanogpt llmc; do
	grep -o '"eot":[0-9]*,\|"documents":[0-9]*' $f.json | tr '\n' ' '
	echo
done
ls data nanoGPT/data/owt llm.c
# nanoGPT keeps pskd-tok's id after each document: 300 of 50256 in all.
od -An -tu2 -v nanoGPT/data/owt/train.bin nanoGPT/data/owt/val.bin | tr -s ' ' '\n' | grep -c '^50256$'
