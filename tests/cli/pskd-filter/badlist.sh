# A list with a bad line: its name and line, exit 1.
printf 'example.com\n\nbad entry\n' > block.txt
pskd-filter -r url --url-blocklist block.txt < /dev/null; echo "exit $?"
printf '#\n://\n' > block.txt
pskd-filter -r url --url-blocklist block.txt < /dev/null; echo "exit $?"
printf 'ok\n...\n' > banned.txt
pskd-filter -r url --url-banned banned.txt < /dev/null; echo "exit $?"
printf 'ok\n\377\n' > banned.txt
pskd-filter -r url --url-banned banned.txt < /dev/null; echo "exit $?"
pskd-filter -r url --url-banned missing.txt < /dev/null; echo "exit $?"
