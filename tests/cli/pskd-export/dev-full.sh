# A report that cannot be written: exit 1 and no files.
printf "1\n9\n" | pskd-pack -t "idx[10]" -o t.psk.d
pskd-export -f megatron -e 9 -o out t.psk.d > /dev/full
echo "exit $?"
ls -A
