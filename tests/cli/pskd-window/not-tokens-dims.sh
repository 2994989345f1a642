# Tokens with a dimension are not a token stream either.
echo '[1,2]' | pskd-pack -t 'idx[50][2]' -o d.psk.d
pskd-window -t 3 d.psk.d
