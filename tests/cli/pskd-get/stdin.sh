# The list from stdin, without a newline at its end.
printf "x\n" > x.bin
printf "file://%s/x.bin" "$PWD" | pskd-get -q -d out
cat out/x.bin
