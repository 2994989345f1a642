# Errors of the document modes, each with its place: an end-of-text id out
# of the vocabulary, a token at or above the bound (E9004), a stream that
# ends inside a token or before its count (E9003), data after the count.
seq 0 9 | pskd-pack -t 'idx[10]' -o t.psk.d
pskd-window -t 3 --align bos -e 10 t.psk.d; echo "exit $?"
{ printf 'PSKD\001\000\007\000\000\000idx[50]'
  printf '\377\377\377\377\377\377\377\377\001\002\074\003'; } |
    pskd-window -t 2 --pack best-fit -e 1 > /dev/null; echo "exit $?"
seq 0 9 | pskd-pack -t 'idx[1000]' | head -c 44 |
    pskd-window -t 2 --align bos -e 3 > /dev/null; echo "exit $?"
head -c 32 t.psk.d | pskd-window -t 2 --pack best-fit -e 3 > /dev/null; echo "exit $?"
cat t.psk.d t.psk.d | pskd-window -t 2 --align bos -e 3 > /dev/null; echo "exit $?"
pskd-window -t 2 --segments -e 3 t.psk.d > /dev/full; echo "exit $?"
pskd-window -t 2 --pack best-fit -e 3 t.psk.d > /dev/full; echo "exit $?"
