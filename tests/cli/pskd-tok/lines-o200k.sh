. "$TESTDIR/../lib.sh"
need_vocab o200k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'The HTTPServer said: 12345\nhelloWorld ¹²³ café\n' | pskd-tok -l -E o200k_base |
pskd-info -n all
