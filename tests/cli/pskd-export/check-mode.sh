# --check: the same line for the same files; a file changed, missing or
# too many is named.
printf '%s\n' 1 2 9 3 9 4 | pskd-pack -t 'idx[10]' -o t.psk.d
pskd-export -f llmc -e 9 --shard-tokens 2 --val-docs 1 -s 3 -o x t.psk.d > want.json
pskd-export --check -f llmc -e 9 --shard-tokens 2 --val-docs 1 -s 3 x t.psk.d > got.json
echo "exit $?"
cmp want.json got.json && echo "same report"
# Another seed is another split.
pskd-export --check -f llmc -e 9 --shard-tokens 2 --val-docs 1 -s 4 x t.psk.d
echo "exit $?"
cp x_train_000001.bin x_train_000009.bin
pskd-export --check -f llmc -e 9 --shard-tokens 2 --val-docs 1 -s 3 x t.psk.d
echo "exit $?"
rm x_train_000009.bin x_train_000002.bin
pskd-export --check -f llmc -e 9 --shard-tokens 2 --val-docs 1 -s 3 x t.psk.d
echo "exit $?"
