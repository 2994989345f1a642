# -u without -d: the bytes to stdout, nothing written here.
printf "streamed\n" > s.txt
pskd-get -q -u "file://$PWD/s.txt"
ls
