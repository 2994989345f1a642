# Streamed (the default): what decoded before the error is out, as the
# format's own tool writes it (the .stdout is its output); then exit 1.
python3 -c "import sys; b = bytearray(sys.stdin.buffer.read()); b[100] ^= 0x40; sys.stdout.buffer.write(b)" < "$TESTDIR/data/docs.jsonl.xz" | pskd-unzst
