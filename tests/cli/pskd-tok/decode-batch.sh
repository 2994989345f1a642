# A batch of two windows of three tokens (pskd-shuffle -B 2's type):
# each leaf's rows in storage order, special tokens as their text.
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
# 9906 "Hello", 11 ",", 1917 " world", 100257 <|endoftext|> (cl100k_base).
printf '[[[9906,11,1917],[1917,100257,9906]],[[11,1917,100257],[100257,9906,11]]]\n' |
    pskd-pack -t '(idx[100277][batch: 2][seq: 3], idx[100277][batch: 2][seq: 3])' |
    pskd-tok -d
