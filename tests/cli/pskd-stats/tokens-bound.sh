# Token 1 is 12, out of idx[10].
printf 'PSKD\001\000\007\000\000\000idx[10]\377\377\377\377\377\377\377\377\001\014' | pskd-stats
