# A manifest that is not one: the line is named.
mkdir out
printf "{\"version\": 1, \"shards\": [\n{\"url\": 1}\n]}\n" > out/manifest.json
printf "{\"manifest_sha256\": \"%s\"}\n" "$(sha256sum < out/manifest.json | cut -c1-64)" > out/manifest.json.lock
pskd-get --verify -d out
