# Not a verdict: sniffed as nothing, or forced and refused: the verdict is
# a word of letters, digits, underscores and dots, and a kept document has
# no fields after its verdict.
printf 'a\tmay be\n' | pskd-stats
printf 'a\tkeep\nb\tmay be\n' | pskd-stats -t verdicts
printf 'a\tkeep\tb\n' | pskd-stats
printf 'a\tgopher_short_doc\nb\n' | pskd-stats
