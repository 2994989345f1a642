# The --annotate example of pskd-get(1): counts land in the manifest and the
# lock still vouches for it.
printf '{"text": "one"}\n{"text": "one"}\n{"text": "two"}\n' > docs.jsonl
zstd -q docs.jsonl
echo "file://$PWD/docs.jsonl.zst" | pskd-get -q -d shards
pskd-get -d shards --annotate docs.jsonl.zst documents=3 unique_documents=2
sed 's|file://[^"]*/docs|file://DIR/docs|' shards/manifest.json
pskd-get --verify -d shards && echo verified
echo "file://$PWD/docs.jsonl.zst" | pskd-get -q -d shards
grep -c '"unique_documents": 2' shards/manifest.json
