# Exports their trainers cannot open are refused and leave no file:
# nanoGPT's val.bin and llm.c's validation shard are never empty (one
# document is too few for the default split), and llm.c's C trainers read
# only the uint16 layout.
printf '%s\n' 1 2 9 | pskd-pack -t 'idx[10]' -o one.psk.d
pskd-export -f nanogpt -e 9 -o n one.psk.d
echo "exit $?"
pskd-export -f llmc -e 9 --val-fraction 1 -o l/x one.psk.d
echo "exit $?"
printf '%s\n' 1 2 9 | pskd-pack -t 'idx[70000]' -o big.psk.d
pskd-export -f llmc -e 9 -o b/x big.psk.d
echo "exit $?"
ls -A
