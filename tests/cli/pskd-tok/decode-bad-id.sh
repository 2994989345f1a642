. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf '15339\n100256\n' | pskd-pack -t 'idx[100277]' | pskd-tok -d
