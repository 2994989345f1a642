# A trimmed verdict must carry the bytes and the units cut (pskd-exact(1)).
printf 'a\tkeep\nb\ttrimmed\t38\n' | pskd-stats
