pskd-export -x 2> err
echo "exit $?"
head -1 err
