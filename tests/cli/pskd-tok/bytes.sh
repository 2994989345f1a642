. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'ok\377\376 x\200\n' > in.bin
pskd-tok -b -r -E cl100k_base --no-eot < in.bin | pskd-info -s -n all
pskd-tok -b -r -E cl100k_base --no-eot < in.bin | pskd-tok -d | cmp - in.bin && echo same
