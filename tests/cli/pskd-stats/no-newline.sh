# The last line without its newline: one byte fewer.
printf '{"text":"ab"}' | pskd-stats -l x
