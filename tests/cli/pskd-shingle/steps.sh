# -n none keeps the text as it is: these two differ only in case.
printf '%s\n' '{"text":"Hello world"}' '{"text":"hello world"}' |
    pskd-shingle -n none | "$TESTDIR/dump.py" | grep -v '^[^ ]'
printf 'Hello world' | xxhsum -H3
printf 'hello world' | xxhsum -H3
# Only case: punctuation stays part of the words.
printf '%s\n' '{"text":"Hello, world"}' | pskd-shingle -n case |
    "$TESTDIR/dump.py" | grep -v '^[^ ]'
printf 'hello, world' | xxhsum -H3
