. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
yes 'the quick brown fox jumps over the lazy dog' | head -n 200000 |
pskd-tok -l -E cl100k_base | head -c4
