. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'last line' | pskd-tok -l -E cl100k_base | pskd-info -s -n all
printf '{"text": "x"}' | pskd-tok -E cl100k_base | pskd-info -s -n all
