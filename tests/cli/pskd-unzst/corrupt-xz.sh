# Byte 100 is inside the LZMA2 data of the only block.
python3 -c "import sys; b = bytearray(sys.stdin.buffer.read()); b[100] ^= 0x40; sys.stdout.buffer.write(b)" < "$TESTDIR/data/docs.jsonl.xz" | pskd-unzst -H
