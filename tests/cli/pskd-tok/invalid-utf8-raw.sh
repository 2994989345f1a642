. "$TESTDIR/../lib.sh"
need_vocab o200k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'line one\nline two\nok \342\202 bad\n' | pskd-tok -r -E o200k_base > /dev/null
