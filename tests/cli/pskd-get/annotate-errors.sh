printf 'x' > a.bin
echo "file://$PWD/a.bin" | pskd-get -q -d shards
pskd-get -d shards --annotate a.bin status='"ok"'
pskd-get -d shards --annotate a.bin n=notjson
pskd-get -d shards --annotate b.bin n=1
printf ' ' >> shards/manifest.json
pskd-get -d shards --annotate a.bin n=1
echo "exit $?"
