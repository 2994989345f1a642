. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
export PSKD_VOCAB_DIR="$PSKD_TOP/vocab"
# One document of 1.4 MB: a line longer than the 1 MiB read buffer.
yes a | head -n 700000 | tr '\n' ' ' | pskd-tok -l -E cl100k_base |
pskd-info -s -n all | sort | uniq -c
