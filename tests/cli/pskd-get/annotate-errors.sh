# --annotate: members pskd-get keeps, values that are not one JSON value on
# one line (a second "status" hidden in a value, a newline), a shard not in
# the manifest, a manifest its lock does not vouch for.
printf 'x' > a.bin
echo "file://$PWD/a.bin" | pskd-get -q -d shards
cp shards/manifest.json before.json
for v in 'status="ok"' 'n=notjson' 'n=1, "status": "failed"' "$(printf 'n=[1,\n2]')" \
    'n= 1' "$(printf 'n="\377"')" "$(printf 'k\001=1')"; do
	pskd-get -d shards --annotate a.bin "$v" 2> err
	echo "exit $?"
	sed -n 1p err >&2
done
cmp -s before.json shards/manifest.json && echo "manifest unchanged"
pskd-get -d shards --annotate b.bin n=1
printf ' ' >> shards/manifest.json
pskd-get -d shards --annotate a.bin n=1
echo "exit $?"
