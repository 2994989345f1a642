. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'a<|endoftext|>b<|fim_prefix|>\n' > in.txt
pskd-tok -l -E cl100k_base --no-eot < in.txt | pskd-info -s -n all
echo --
pskd-tok -l -E cl100k_base --no-eot --allow-special < in.txt | pskd-info -s -n all
