# --val-docs counts the documents first: a pipe cannot (--val-fraction can).
printf "1\n9\n" | pskd-pack -t "idx[10]" | pskd-export -f llmc -e 9 --val-docs 1 -o out 2> err
echo "exit $?"
head -1 err
ls -A
