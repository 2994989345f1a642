# Errors in the files exit 1 and name the file: another type (E9005), no
# samples, not .psk.d (E9002), truncated (E9003), a pipe; --start past
# the end of the slice.
seq 0 9 | pskd-pack -t 'idx[50]' -o a.psk.d
seq 0 9 | pskd-pack -t 'idx[60]' -o b.psk.d
printf '' | pskd-pack -t 'idx[50]' -o none.psk.d
echo hello > text
head -c 31 a.psk.d > cut.psk.d
pskd-mix a.psk.d:1 b.psk.d:1; echo "exit $?"
pskd-mix a.psk.d:1 none.psk.d:1; echo "exit $?"
pskd-mix a.psk.d:1 text:1; echo "exit $?"
pskd-mix cut.psk.d:1; echo "exit $?"
seq 0 9 | pskd-pack -t 'idx[50]' | pskd-mix /dev/stdin:1; echo "exit $?"
pskd-mix -i --start 21 a.psk.d:1 a.psk.d:1; echo "exit $?"
pskd-mix -i --world 4 --start 5 -L 20 a.psk.d:1; echo "exit $?"
