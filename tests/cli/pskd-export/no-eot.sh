# Without the end-of-text id there are no documents: a usage error.
pskd-export -f megatron -o out < /dev/null 2> err
echo "exit $?"
head -1 err
