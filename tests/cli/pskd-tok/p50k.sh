. "$TESTDIR/../lib.sh"
need_vocab p50k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'x = 1    # four spaces\n' | pskd-tok -r -E p50k_base --no-eot | pskd-info -n all
