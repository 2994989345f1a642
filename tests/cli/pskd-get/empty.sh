# An empty list: an empty manifest.
pskd-get -q -d out < /dev/null
cat out/manifest.json out/manifest.json.lock
