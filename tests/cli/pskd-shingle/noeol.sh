# A last line without a newline is a document like the others.
printf '{"text":"a b"}\n{"text":"c d"}' | pskd-shingle | "$TESTDIR/dump.py"
