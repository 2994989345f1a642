# A Split whose regular expression PCRE2 gives up on (its match limit:
# nested quantifiers on 30 letters that do not match) fails that
# document with one line naming it, the tokenizer.json and the line of
# the step; with --rejects the run goes on.
cat > tok.json <<'JSON'
{"version": "1.0",
 "added_tokens": [],
 "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
   {"type": "Split", "pattern": {"Regex": "(a+)+$"},
    "behavior": "Isolated", "invert": false}]},
 "model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": []}}
JSON
printf '{"text":"ab"}\n{"text":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaab"}\n' > d.jsonl
pskd-tok -v tok.json d.jsonl > /dev/null
echo "exit $?"
pskd-tok -v tok.json --rejects r.tsv d.jsonl | pskd-info -s -n all
cat r.tsv
