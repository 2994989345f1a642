. "$TESTDIR/../lib.sh"
need_vocab o200k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'a\nb\n' | pskd-tok -l -E o200k_base -e '<|endofprompt|>' | pskd-info -s -n all
echo --
printf 'a\nb\n' | pskd-tok -l -E o200k_base -e '
' | pskd-info -s -n all
