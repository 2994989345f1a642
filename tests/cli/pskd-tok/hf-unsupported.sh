# A tokenizer.json asking for what pskd-tok does not run: one line with
# the file and the line, exit 1.
cat > tok.json <<'JSON'
{"version": "1.0",
 "added_tokens": [],
 "normalizer": {"type": "Precompiled", "precompiled_charsmap": ""},
 "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}
JSON
printf 'a\n' | pskd-tok -l -v tok.json
