# -E and -v: the ids pskd-tok(1) writes after each document, asked of
# pskd-tok's family (the vocabularies are read as pskd-tok reads them).
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
printf '1\n' | pskd-pack -t 'idx[200019]' -o t.psk.d
for e in gpt2 r50k_base p50k_base cl100k_base o200k_base; do
	pskd-export -f megatron -E $e -o m t.psk.d | grep -o '"eot":[0-9]*'
done
# A trained vocabulary names its special tokens in VOCAB.special.
printf 'x\n' | pskd-tok --train 256 -r --special '<|pad|>' \
    --special '<|endoftext|>' -o mine.tiktoken
pskd-export -f megatron -v mine.tiktoken -o m t.psk.d | grep -o '"eot":[0-9]*'
# Else the encoding its name starts with.
cp "$PSKD_VOCAB_DIR/cl100k_base.tiktoken" .
pskd-export -f megatron -v ./cl100k_base.tiktoken -o m t.psk.d | grep -o '"eot":[0-9]*'
# A character vocabulary: <|endoftext|> follows its characters.
printf 'a\nb\n\\n\n' > chars.txt
pskd-export -f megatron -E char -v chars.txt -o m t.psk.d | grep -o '"eot":[0-9]*'
# A ranks file of no encoding, without a companion: pskd-tok cannot tell.
printf 'x\n' | pskd-tok --train 256 -r > other.tiktoken
pskd-export -f megatron -v other.tiktoken -o m t.psk.d 2>&1
echo "exit $?"
