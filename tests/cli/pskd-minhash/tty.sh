# Binary output refuses a terminal (a pseudo-terminal from script(1)).
pskd-shingle < /dev/null > sh
script -qec 'pskd-minhash sh; echo "exit $?"' /dev/null < /dev/null | tr -d '\r'
