# Sample 1 of a window stream holds 12, out of idx[10].
printf 'PSKD\001\000\042\000\000\000(idx[10][seq: 2], idx[10][seq: 2])\002\000\000\000\000\000\000\000\001\002\002\003\004\005\005\014' | pskd-stats
