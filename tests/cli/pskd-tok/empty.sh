. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
pskd-tok -E cl100k_base < /dev/null | pskd-info -n all
pskd-tok -l -E cl100k_base < /dev/null | pskd-info -s -n all
pskd-tok -r -E cl100k_base < /dev/null | pskd-info -s -n all
