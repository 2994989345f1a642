. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken r50k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'hi\n' | pskd-tok -l -E r50k_base | pskd-tok -d -E cl100k_base
