# "-" is the standard output in every program, and pskd-export writes
# files named from a prefix: -o - is refused, and nothing is made.
. "$TESTDIR/../lib.sh"
printf "1\n9\n" | pskd-pack -t "idx[10]" -o t.psk.d
no_usage pskd-export -f megatron -e 9 -o - t.psk.d
echo "exit $?"
ls -A
