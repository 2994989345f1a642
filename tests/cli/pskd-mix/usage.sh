# Operands are FILE:WEIGHT with a weight above 0 of at most nine digits
# after the point; epochs count from 1; a rank is below the world; the
# weights' ratios fit in 31 bits; files, not standard input.
. "$TESTDIR/../lib.sh"
seq 0 9 | pskd-pack -t 'idx[50]' -o a.psk.d
no_usage pskd-mix; echo "exit $?"
no_usage pskd-mix a.psk.d; echo "exit $?"
no_usage pskd-mix a.psk.d:0; echo "exit $?"
no_usage pskd-mix a.psk.d:-1; echo "exit $?"
no_usage pskd-mix a.psk.d:0.0000000001; echo "exit $?"
no_usage pskd-mix a.psk.d:1e3; echo "exit $?"
no_usage pskd-mix :1; echo "exit $?"
no_usage pskd-mix -e 0 a.psk.d:1; echo "exit $?"
no_usage pskd-mix -L 0 a.psk.d:1; echo "exit $?"
no_usage pskd-mix --rank 2 --world 2 a.psk.d:1; echo "exit $?"
no_usage pskd-mix a.psk.d:1000000000 a.psk.d:0.000000001; echo "exit $?"
no_usage pskd-mix -- -:1; echo "exit $?"
no_usage pskd-mix -x a.psk.d:1; echo "exit $?"
