# idx[10] with an id of 12 (bytes by hand): E9004, where it is.
printf "PSKD\001\000\007\000\000\000idx[10]\004\000\000\000\000\000\000\000\001\002\014\011" > bad.psk.d
pskd-export -f megatron -e 9 -o out bad.psk.d
echo "exit $?"
ls -A
