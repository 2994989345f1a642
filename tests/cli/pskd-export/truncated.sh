# Fewer tokens than the header declares.
seq 0 9 | pskd-pack -t "idx[10]" -o t.psk.d
head -c 30 t.psk.d > cut.psk.d
pskd-export -f megatron -e 9 -o out cut.psk.d
echo "exit $?"
ls -A
