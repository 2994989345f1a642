# An empty stream: 0 documents, the files of an empty export.
pskd-pack -t "idx[10]" -o t.psk.d < /dev/null
pskd-export -f megatron -e 9 -o out t.psk.d > /dev/null
od -An -tx1 out.idx
wc -c < out.bin
