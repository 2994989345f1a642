"""parquet_thrift.py - the Thrift compact protocol, as far as Parquet's
footer and page headers use it, for the tests that make Parquet files by
hand or break real ones (tests/t/parquet-hostile, parquet-handmade).  A
struct is ["struct", [[field id, type, value], ...]], a list ["list",
element type, [values]]; field() finds a field by its path."""
import struct

def uleb(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def unzig(v):
    return (v >> 1) ^ -(v & 1)


def value(b, i, t):
    if t in (1, 2):
        return t == 1, i
    if t == 3:
        return struct.unpack("b", b[i:i + 1])[0], i + 1
    if t in (4, 5, 6):
        v, i = uleb(b, i)
        return unzig(v), i
    if t == 7:
        return struct.unpack("<d", b[i:i + 8])[0], i + 8
    if t == 8:
        n, i = uleb(b, i)
        return bytes(b[i:i + n]), i + n
    if t in (9, 10):
        h = b[i]
        i += 1
        n, et = h >> 4, h & 15
        if n == 15:
            n, i = uleb(b, i)
        items = []
        for _ in range(n):
            if et in (1, 2):
                items.append(b[i] == 1)
                i += 1
            else:
                v, i = value(b, i, et)
                items.append(v)
        return ["list", et, items], i
    if t == 12:
        fields, last = [], 0
        while True:
            h = b[i]
            i += 1
            if h == 0:
                return ["struct", fields], i
            ft = h & 15
            if h >> 4:
                fid = last + (h >> 4)
            else:
                v, i = uleb(b, i)
                fid = unzig(v)
            v, i = value(b, i, ft)
            fields.append([fid, ft, v])
            last = fid
    raise ValueError("type %d" % t)


def enc_uleb(v):
    out = bytearray()
    while True:
        c = v & 0x7f
        v >>= 7
        if v:
            out.append(c | 0x80)
        else:
            out.append(c)
            return bytes(out)


def zig(v):
    return (v << 1) ^ (v >> 63)


def encode(v, t):
    if t in (1, 2):
        return b""
    if t == 3:
        return struct.pack("b", v)
    if t in (4, 5, 6):
        return enc_uleb(zig(v) & (2 ** 64 - 1))
    if t == 7:
        return struct.pack("<d", v)
    if t == 8:
        return enc_uleb(len(v)) + v
    if t in (9, 10):
        _, et, items = v
        n = len(items)
        out = bytes([(n << 4 | et) if n < 15 else (0xf0 | et)])
        if n >= 15:
            out += enc_uleb(n)
        for it in items:
            out += bytes([1 if it else 2]) if et in (1, 2) else encode(it, et)
        return out
    if t == 12:
        out, last = bytearray(), 0
        for fid, ft, fv in v[1]:
            if ft in (1, 2):
                ft = 1 if fv else 2
            if 0 < fid - last <= 15:
                out.append((fid - last) << 4 | ft)
            else:
                out.append(ft)
                out += enc_uleb(zig(fid))
            out += encode(fv, ft)
            last = fid
        out.append(0)
        return bytes(out)
    raise ValueError(t)


def field(st, *path):
    """The [fid, type, value] of a field path (list items by index)."""
    cur = None
    v = st
    for p in path:
        if v[0] == "struct":
            cur = next(f for f in v[1] if f[0] == p)
            v = cur[2]
        else:
            v = v[2][p]
            cur = None
    return cur if cur is not None else v
