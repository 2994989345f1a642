pskd-unzst -r 10-5 x.zst 2> err
s=$?
head -n 1 err >&2
exit $s
