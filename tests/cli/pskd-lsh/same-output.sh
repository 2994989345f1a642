# -o and --verdicts naming one file: refused at start, and nothing left
# that looks like a finished output.
. "$TESTDIR/../lib.sh"
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash > sig
no_usage pskd-lsh -q -o X --verdicts X sig
s=$?
ls -A
exit $s
