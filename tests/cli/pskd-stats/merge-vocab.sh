printf '1\n' | pskd-pack -t 'idx[10]' > a.psk.d
printf '1\n' | pskd-pack -t 'idx[11]' > b.psk.d
pskd-stats -m a.psk.d b.psk.d
