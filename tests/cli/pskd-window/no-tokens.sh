# A stream without tokens, and one shorter than a window: no windows, no
# error.
printf '' | pskd-pack -t 'idx[50]' -o none.psk.d
pskd-window -t 3 none.psk.d | pskd-info
printf '1\n2\n3\n' | pskd-pack -t 'idx[50]' | pskd-window -t 3 | pskd-info -s
echo "exit $?"
