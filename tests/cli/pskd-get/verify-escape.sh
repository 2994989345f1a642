# A tampered manifest cannot make --verify read outside the folder.
mkdir out
printf "{\"version\": 1, \"shards\": [\n{\"url\": \"file:///etc/passwd\", \"file\": \"../../etc/passwd\", \"bytes\": 1, \"sha256\": null, \"etag\": null, \"status\": \"complete\"}\n]}\n" > out/manifest.json
printf "{\"manifest_sha256\": \"%s\"}\n" "$(sha256sum < out/manifest.json | cut -c1-64)" > out/manifest.json.lock
pskd-get --verify -d out
