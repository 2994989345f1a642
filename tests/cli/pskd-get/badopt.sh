# The message line of a usage error (the usage text is the man page's
# SYNOPSIS, checked by its own test).
pskd-get -x urls.txt 2> err
s=$?
sed -n 1p err >&2
exit $s
