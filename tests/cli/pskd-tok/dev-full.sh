. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'hello\n' | pskd-tok -l -E cl100k_base > /dev/full
