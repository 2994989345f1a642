. "$TESTDIR/../lib.sh"
need_vocab o200k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
printf 'Grüße, 世界! <|endoftext|> 🏳️‍🌈\r\n' > in.txt
pskd-tok -r -E o200k_base < in.txt > ids.psk
pskd-tok -d < ids.psk > out.txt
printf 'Grüße, 世界! <|endoftext|> 🏳️‍🌈\r\n<|endoftext|>' | cmp - out.txt && echo same
