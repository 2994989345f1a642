# Windows (a tuple type) are not a token stream.
seq 0 9 | pskd-pack -t "idx[10]" | pskd-window -t 3 > win.psk.d
pskd-export -f llmc -e 9 -o out win.psk.d
echo "exit $?"
ls -A
