export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'hello\n' | pskd-tok -d
