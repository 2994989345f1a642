# pskd-pack(1): a token stream into a file of training windows.
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
awk 'BEGIN { for (i = 1; i <= 3000; i++) printf "{\"text\": \"number %d\"}\n", i }' > docs.jsonl
pskd-tok -E cl100k_base docs.jsonl | pskd-window -t 1024 | pskd-pack -o train.psk.d
pskd-info -n 0 train.psk.d
# The window count follows from the token count: 1 + (N - 1025) div 1024.
pskd-tok -E cl100k_base docs.jsonl | pskd-pack -o tokens.psk.d
n=$(pskd-info -n 0 tokens.psk.d | sed -n 's/^count: //p')
echo "windows expected: $((1 + (n - 1025) / 1024))"
