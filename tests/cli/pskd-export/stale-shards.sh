# A shorter llm.c export over a longer one removes the old shards, and
# nothing but the shard names it owns.
printf '%s\n' 1 2 3 9 4 5 6 7 8 9 | pskd-pack -t 'idx[10]' -o long.psk.d
printf '%s\n' 1 9 2 9 | pskd-pack -t 'idx[10]' -o short.psk.d
pskd-export -f llmc -e 9 --shard-tokens 2 --val-docs 1 -o x long.psk.d > /dev/null 2>&1
touch x_train_notes.txt x_train_1.bin
ls
pskd-export -f llmc -e 9 --shard-tokens 2 --val-docs 1 -o x short.psk.d > /dev/null 2>&1
echo "--"
ls
