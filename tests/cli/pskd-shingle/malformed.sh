# The second line is not JSON: FILE:LINE and the byte.
printf '{"text":"fine"}\n{"text": nope}\n' > bad.jsonl
pskd-shingle bad.jsonl > /dev/null
