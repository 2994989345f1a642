# The last token of text without a final newline still counts.
printf '1\n2\n3' | pskd-pack -t 'idx[50]' | pskd-window -t 2 | pskd-info -s
