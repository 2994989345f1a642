printf "" | zstd -q -c | pskd-unzst
