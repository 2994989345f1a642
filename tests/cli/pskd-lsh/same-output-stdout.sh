# The kept lines go to standard output, so --dropped - is a second use of it.
. "$TESTDIR/../lib.sh"
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash > sig
no_usage pskd-lsh -q --dropped - sig
