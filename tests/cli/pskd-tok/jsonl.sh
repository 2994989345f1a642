. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf '%s\n' '{"id": 1, "text": "Hello, world!"}' '{"text": "don'\''t stop\n\tnow"}' |
pskd-tok -E cl100k_base | pskd-info -s -n all
