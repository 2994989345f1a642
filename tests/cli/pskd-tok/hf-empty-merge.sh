# A merge with an empty part (" he", or ["", "he"]) names no token: one
# line with the file and the line, exit 1 (fuzz-tokjson found it read
# before its buffer).
cat > tok.json <<'JSON'
{"model": {"type": "BPE", "vocab": {"h": 0, "e": 1, "he": 2},
 "merges": [
  " he"]}}
JSON
printf 'he\n' | pskd-tok -l -v tok.json
cat > tok2.json <<'JSON'
{"model": {"type": "BPE", "vocab": {"h": 0, "e": 1, "he": 2},
 "merges": [["h", "e"],
  ["he", ""]]}}
JSON
printf 'he\n' | pskd-tok -l -v tok2.json
