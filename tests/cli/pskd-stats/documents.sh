# Lengths in bytes and in code points, after unescaping; an id is no matter.
printf '{"text":"h\\u00e9llo w\\u00f6rld"}\n{"id":"x","text":"\342\202\2545"}\n' | pskd-stats
