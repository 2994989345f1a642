. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf '{"text": "a"}\n{"text": "b",}\n' | pskd-tok -E cl100k_base > /dev/null
