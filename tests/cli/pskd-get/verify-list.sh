# --verify with a list: the message says why, not only the usage.
pskd-get --verify -d out urls.txt 2> err
s=$?
sed -n 1p err >&2
exit $s
