# A usage error: the message line only (the usage text after it is the
# SYNOPSIS of the man page, which a test of its own compares).
pskd-minhash -a cminhash < /dev/null 2> err
s=$?
head -n 1 err >&2
exit $s
