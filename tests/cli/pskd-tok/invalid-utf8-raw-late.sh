# -r cuts a large input into pieces: the line number still counts them all.
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
{ seq -f 'line %g of some text' 150000; printf 'ok \342\202 bad\n'; } |
    pskd-tok -r -E cl100k_base > /dev/null
