# SIGPIPE ends it quietly.
seq 1 2000000 | zstd -q -c | pskd-unzst | head -c1
