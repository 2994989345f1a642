printf 'a\tkeep\nb\tnear_duplicate\ta\t1.5\n' | pskd-stats
