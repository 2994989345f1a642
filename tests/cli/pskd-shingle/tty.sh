# Binary output refuses a terminal (a pseudo-terminal from script(1)).
script -qec 'pskd-shingle < /dev/null; echo "exit $?"' /dev/null < /dev/null | tr -d '\r'
