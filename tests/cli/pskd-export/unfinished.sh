# A file that still has the streaming count was left by a killed writer.
seq 0 9 | pskd-pack -t "idx[10]" | cat > stream.psk.d
pskd-export -f nanogpt -e 9 -o out stream.psk.d
echo "exit $?"
ls -A
