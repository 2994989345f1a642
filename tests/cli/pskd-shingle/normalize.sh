# Case, punctuation, digits, whitespace and diacritics: all three documents
# normalise to "hello world 0000 cafe" and give the same shingle.
printf '%s\n' '{"text":"Héllo,   WORLD!! 2024 — Café"}' \
    '{"text":"hello world 1999 cafe"}' \
    '{"text":"  HELLO\tworld\u00a0\uff12\uff10\uff12\uff14 CAFE\u0301  "}' |
    pskd-shingle | "$TESTDIR/dump.py" | grep -v '^[^ ]'
printf 'hello world 0000 cafe' | xxhsum -H3
