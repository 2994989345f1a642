pskd-unparquet -g 2/2 2> err
s=$?
head -n 1 err >&2
exit $s
