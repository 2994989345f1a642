# Streamed (the default): what decoded before the error is out, as the
# format's own tool writes it (the .stdout is its output); then exit 1.
head -c 100 "$TESTDIR/data/docs.jsonl.xz" | pskd-unzst
