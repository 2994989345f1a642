# The first EXAMPLES of pskd-export(1), verbatim, then its files against
# bytes derived by hand from Megatron-LM's indexed_dataset.py layout.
printf '%s\n' 5 6 9 7 9 | pskd-pack -t 'idx[10]' -o tokens.psk.d
pskd-export -f megatron -e 9 -o demo tokens.psk.d > demo.json
od -An -tu2 demo.bin
# .bin: uint16 LE 5 6 9 | 7 9
printf '\005\000\006\000\011\000\007\000\011\000' > want.bin
# .idx: "MMIDIDX\0\0", u64 version 1, u8 code 8 (uint16), u64 S=2,
# u64 D+1=3, int32 lengths 3 2, int64 pointers 0 6 (bytes), int64
# document indices 0 1 2.
z4='\000\000\000\000'
z7='\000\000\000\000\000\000\000'
printf "MMIDIDX\000\000\001$z7\010\002$z7\003$z7\003\000\000\000\002\000\000\000$z4$z4\006$z7$z4$z4\001$z7\002$z7" > want.idx
cmp want.bin demo.bin && echo ".bin as derived by hand"
cmp want.idx demo.idx && echo ".idx as derived by hand"
# The report: sizes and sha256 of the hand-made files.
b=$(sha256sum < want.bin | cut -c1-64)
i=$(sha256sum < want.idx | cut -c1-64)
printf '{"format":"megatron","dtype":"uint16","eot":9,"tokens":5,"documents":2,"train":{"documents":2,"tokens":5},"files":[{"path":"demo.bin","bytes":10,"sha256":"%s"},{"path":"demo.idx","bytes":82,"sha256":"%s"}]}\n' "$b" "$i" > want.json
cmp want.json demo.json && echo "the JSON line as derived"
