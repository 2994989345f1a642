# -e: another end-of-text id; three empty documents.
printf '3\n3\n1\n3\n' | pskd-pack -t 'idx[10]' | pskd-stats -e 3 -k 0
