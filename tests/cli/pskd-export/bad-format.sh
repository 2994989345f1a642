pskd-export -f parquet -e 1 -o out < /dev/null 2> err
echo "exit $?"
head -1 err
