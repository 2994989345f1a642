# A corrupt gzip member (its CRC): the members before it go out.
python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[-6] ^= 1; open('c.warc.gz', 'wb').write(b)" "$TESTDIR/../../data/warc"/made.warc.gz && pskd-unwarc -q c.warc.gz > out; s=$?; wc -l < out; exit $s
