# Not a verdict: sniffed as nothing, or forced and refused.
printf 'a\tmaybe\n' | pskd-stats
printf 'a\tkeep\nb\tmaybe\n' | pskd-stats -t verdicts
