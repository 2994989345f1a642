# A Sequence of normalizers that each make the text longer (Replace "a"
# by "a a", fifteen times: 2^16 - 1 bytes of one) is stopped once the
# text is 16 times as long and 4 KiB: at the twelfth step, 8191 bytes,
# whose object begins on line 84; one line names the document, the
# tokenizer.json and that line.
python3 -c '
import json
step = {"type": "Replace", "pattern": {"String": "a"}, "content": "a a"}
print(json.dumps({"version": "1.0", "added_tokens": [],
    "normalizer": {"type": "Sequence", "normalizers": [step] * 15},
    "model": {"type": "BPE", "vocab": {"a": 0, " ": 1}, "merges": []}},
    indent=1))' > tok.json
printf 'a\n' | pskd-tok -l -v tok.json > /dev/null
echo "exit $?"
