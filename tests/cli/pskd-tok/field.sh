. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf '{"body": "b", "text": 1}\n' | pskd-tok -f body -E cl100k_base | pskd-info -s -n all
