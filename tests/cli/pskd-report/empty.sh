# No shards and no objects: the page and its JSON still come out.
printf '{"version": 1, "shards": [\n]}\n' > m.json
mkdir d
pskd-report -t 'Nothing <yet>' -o out.html m.json d
cat out.json
grep -c '<section id=' out.html
grep -o '<h1>[^<]*</h1>' out.html
