# --verdicts /dev/fd/N writes to descriptor N, as the shell's >&N, whatever
# it holds (here a regular file).  (/dev/stdout and /dev/stderr take the
# same path; not tried here, since the bug this guards against would
# replace the machine's /dev/stderr with a file.)
. "$TESTDIR/../lib.sh"
pskd-shingle < "$TESTDIR/docs.jsonl" | pskd-minhash > sig
pskd-lsh -q --verdicts /dev/fd/9 sig 9> v9 > kept
pskd-lsh -q --verdicts v sig > /dev/null
cmp v v9 && test -s v && echo same
