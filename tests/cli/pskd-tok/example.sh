# The EXAMPLES of pskd-tok(1), verbatim.  The shard: 8 documents, 6448
# tokens by npm tiktoken (o200k_base, with <|endoftext|>): 6 windows.
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken o200k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'Hello, world!\nhello again\n' | pskd-tok -l -E cl100k_base | pskd-info -s -n 5
printf 'Hello, world!\n' | pskd-tok -r -E o200k_base --no-eot | pskd-tok -d
printf 'abba\n' | pskd-tok --build-vocab -r > chars.txt
printf 'abba\n' | pskd-tok -E char -v chars.txt -l | pskd-info -s -n all
for i in 1 2 3 4 5 6 7 8; do
	printf '{"text": "Document %d. %s"}\n' $i "$(yes 'The quick brown fox jumps over the lazy dog.' | head -n 80 | tr '\n' ' ')"
done | zstd -q > shard.zst
pskd-unzst < shard.zst | pskd-tok -E o200k_base | pskd-window -t 1024 | pskd-pack -o train.psk.d
pskd-info -n 0 train.psk.d
