printf "d\n" > d.bin
pskd-get -q -u "file://$PWD/d.bin" > /dev/full
