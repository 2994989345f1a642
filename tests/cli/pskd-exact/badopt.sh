# Usage errors: the message line only (the usage text after it is the
# SYNOPSIS of the man page, which a test of its own compares).
. "$TESTDIR/../lib.sh"
for args in "-x" "-g words" "-g span:0" "--fp-rate 0.01" "--bloom 10 --fp-rate 0" \
    "-s 3" "--map 2 -o m" "--map 2 -s 0 -o m a b" \
    "--map 2 -s 0 -o m -w 3" "--map 2 -s 0 -o m --verdicts v" "--reduce x" "--apply x" \
    "--commit d x" "--commit d --abort d"; do
	no_usage pskd-exact $args < /dev/null
	echo "exit $?"
done
