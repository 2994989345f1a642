. "$TESTDIR/../lib.sh"
need_vocab r50k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'one\n\ntwo  three   \n' | pskd-tok -r -E r50k_base | pskd-info -s -n all
