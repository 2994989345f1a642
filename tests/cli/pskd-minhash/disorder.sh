# Shingle values out of order in the fourth frame: refused in either
# family, with the same message.
pskd-shingle < "$TESTDIR/docs.jsonl" | /usr/bin/python3 -c '
import struct, sys
d = bytearray(sys.stdin.buffer.read())
off = 48
for frame in range(4):
    idlen, linelen, count = struct.unpack_from("<III", d, off)
    v = off + 12 + idlen + linelen
    off = v + 8 * count
d[v:v + 8], d[v + 8:v + 16] = d[v + 8:v + 16], d[v:v + 8]
sys.stdout.buffer.write(d)' > sh
pskd-minhash -a oph sh | wc -c
pskd-minhash sh | wc -c
pskd-minhash sh > /dev/null
