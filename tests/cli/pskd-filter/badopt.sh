# A usage error: the message line only.
pskd-filter -x < /dev/null 2> err
s=$?
head -n 1 err >&2
exit $s
