# The windows example of pskd-tok(1), verbatim: r50k_base cuts the line
# into one| two| three| four| five| six|\n, then <|endoftext|>: 8 tokens, one
# window of 4 (1 + (8 - 5) div 4), whose input and target rows are these.
. "$TESTDIR/../lib.sh"
need_vocab r50k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'one two three four five six\n' | pskd-tok -r -E r50k_base | pskd-window -t 4 | pskd-pack -o w.psk.d
pskd-tok -d w.psk.d | head -2
