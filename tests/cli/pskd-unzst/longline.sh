# A 3 MB line: longer than every buffer.
head -c 3000000 /dev/zero | tr "\0" x | zstd -q -c | pskd-unzst | wc -c
