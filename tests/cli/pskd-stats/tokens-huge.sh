# A vocabulary too large to count: no top list, no counts.
printf '5\n4294967296\n4294967297\n' | pskd-pack -t 'idx[4294967298]' | pskd-stats
