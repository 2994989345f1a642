# nanoGPT reads uint16: a vocabulary over 65536 is refused unless asked.
printf "1\n9\n" | pskd-pack -t "idx[100277]" -o t.psk.d
pskd-export -f nanogpt -e 9 -o out t.psk.d
echo "exit $?"
ls -A
