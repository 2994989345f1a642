# --resume-only never starts a shard from byte zero.
printf "r\n" > r.bin
printf "file://%s/r.bin\n" "$PWD" > urls.txt
pskd-get -q --resume-only -d out urls.txt 2>&1 | sed "s|$PWD|PWD|"
pskd-get -q -d out urls.txt
pskd-get -q --resume-only -d out urls.txt && echo "complete shards verify"
