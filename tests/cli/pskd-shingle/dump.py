#!/usr/bin/python3
# dump.py - a frame stream (stdin) as text, read with struct from the
# layout in pskd-frames(5), for the golden tests.  --summary: counts only.
# A rejected document of a version 2 stream is marked "(rejected)".
import struct, sys

data = sys.stdin.buffer.read()
summary = "--summary" in sys.argv
if data[:4] != b"PSKF" or len(data) < 48:
    sys.exit("dump.py: not a frame stream")
(version, kind, unit, n, norm, k, sseed, mseed, family,
 reserved) = struct.unpack_from("<HHIIIIQQII", data, 4)
print("version %d kind %s unit %s n %d norm %d shingle_seed %d" % (
    version, {1: "shingles", 2: "signatures"}[kind],
    {0: "words", 1: "chars"}[unit], n, norm, sseed))
if kind == 2:
    print("k %d family %s minhash_seed %d" % (
        k, {1: "classic", 2: "oph"}[family], mseed))
off = 48
vs = 8 if kind == 1 else 4
while off < len(data):
    idlen, linelen, count = struct.unpack_from("<III", data, off)
    off += 12
    rejected = version == 2 and idlen & 0x80000000
    idlen &= 0x7fffffff if version == 2 else 0xffffffff
    mark = " (rejected)" if rejected else ""
    fid = data[off:off + idlen].decode("utf-8", "backslashreplace")
    off += idlen
    line = data[off:off + linelen]
    off += linelen
    vals = [int.from_bytes(data[off + i * vs:off + (i + 1) * vs], "little")
            for i in range(count)]
    off += count * vs
    if summary:
        print("%s%s: line %d bytes, %d values" % (fid, mark, linelen, count))
        continue
    print("%s%s: %s" % (fid, mark, line.decode("utf-8", "backslashreplace")))
    for v in vals:
        print("  %0*x" % (2 * vs, v))
if off != len(data):
    sys.exit("dump.py: trailing bytes")
