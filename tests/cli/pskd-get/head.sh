# -u streams; head ends it quietly.
seq 1 500000 > big.txt
pskd-get -q -u "file://$PWD/big.txt" | head -c1
