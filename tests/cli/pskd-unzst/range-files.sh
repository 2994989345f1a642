pskd-unzst -r 0-5 a.zst b.zst 2> err
s=$?
head -n 1 err >&2
exit $s
