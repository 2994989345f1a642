. "$TESTDIR/../lib.sh"
need_vocab o200k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
# The encoding follows from the file name.
printf 'hello world\n' | pskd-tok -l -v "$PSKD_TOP/vocab/o200k_base.tiktoken" | pskd-info -s -n all
