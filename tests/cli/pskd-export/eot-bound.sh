# The end-of-text id must be an id of the stream.
printf "1\n9\n" | pskd-pack -t "idx[10]" -o t.psk.d
pskd-export -f megatron -e 10 -o out t.psk.d
echo "exit $?"
ls -A
