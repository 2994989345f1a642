# A sha256 that does not match: one restart, then the shard fails.
printf "v\n" > v.bin
printf "file://%s/v.bin %s\n" "$PWD" "$(printf "%064d" 0)" > urls.txt
pskd-get -q -d out urls.txt 2>&1 | sed "s|$PWD|PWD|"
ls out
