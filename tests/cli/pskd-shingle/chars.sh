# Character 3-grams of text without spaces; shorter than 3: one shingle.
printf '%s\n' '{"text":"東京都庁"}' '{"text":"東京"}' | pskd-shingle -c 3 |
    "$TESTDIR/dump.py"
for s in 東京都 京都庁 東京; do printf '%s' "$s" | xxhsum -H3; done
