# Streams of another kind are named, with the program that reads them.
printf '{"text": "a"}\n' | pskd-info
printf '{"text": "a b c"}\n' | pskd-shingle | pskd-info
printf '{"text": "a"}\n' | zstd -q | pskd-info
printf '{"text": "a"}\n' | gzip | pskd-info
echo "exit $?"
