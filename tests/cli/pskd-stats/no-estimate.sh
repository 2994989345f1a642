printf 'a\tkeep\nb\tnear_duplicate\ta\n' | pskd-stats
