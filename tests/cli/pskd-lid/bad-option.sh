# The message line; the usage text follows it (compared with the manual
# by tests/t/synopsis).
pskd-lid -x 2> err
rc=$?
head -1 err >&2
exit $rc
