# -v names a character vocabulary without -E char: a file of one character
# a line is one (a ranks file's lines and a tokenizer.json's are longer),
# for encoding and for decoding.
printf 'abba\n' | pskd-tok --build-vocab -r > chars.txt
printf 'abba\n' | pskd-tok -v chars.txt -l | pskd-info -s -n all
printf 'abba\n' | pskd-tok -v chars.txt -l | pskd-tok -d -v chars.txt
echo
# With a tiktoken -E, the file is that encoding's ranks: refused as such.
pskd-tok -E cl100k_base -v chars.txt < /dev/null 2>&1
echo "exit $?"
