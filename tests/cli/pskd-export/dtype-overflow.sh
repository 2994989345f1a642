# idx[70000] asked for as uint16: 66000 does not fit.
printf "1\n66000\n9\n" | pskd-pack -t "idx[70000]" -o t.psk.d
pskd-export -f nanogpt --dtype uint16 -e 9 -o out t.psk.d
echo "exit $?"
ls -A
