"""pskdtest - what the Python test scripts share: the .psk.d header and
token streams, the frame stream of the dedup programs, and the ok/not ok
lines the runner counts.  Written from pskd(5) and pskd-frames(5), not from
the C code, so the scripts that use it check the programs independently.

A script finds it with
    sys.path.insert(0, os.path.join(os.environ["PSKD_TOP"], "tests", "lib"))
"""
import re
import struct

COUNT_STREAM = 2**64 - 1


class Report:
    """ok / not ok lines; .failed counts the second kind."""

    def __init__(self):
        self.failed = 0

    def __call__(self, ok, what, detail=""):
        print(("ok - " if ok else "not ok - ") + what)
        if not ok:
            self.failed += 1
            if detail:
                print("  " + str(detail).replace("\n", "\n  "))
        return ok


def idx_width(bound):
    """Bytes of an idx[bound] element: the smallest of 1, 2, 4, 8."""
    return 1 if bound <= 2**8 else 2 if bound <= 2**16 else \
        4 if bound <= 2**32 else 8


def psk_header(type_text, count):
    """A version 1 header (every leaf f64 or idx)."""
    t = type_text.encode()
    return b"PSKD" + struct.pack("<HI", 1, len(t)) + t + struct.pack("<Q", count)


def psk_parse(data):
    """(type text, count or None for the streaming count, version, the
    bytes after the header).  Version 2's leaf codes are skipped."""
    if data[:4] != b"PSKD":
        raise ValueError("not a .psk.d stream")
    version, tl = struct.unpack_from("<HI", data, 4)
    typ = data[10:10 + tl].decode()
    (count,) = struct.unpack_from("<Q", data, 10 + tl)
    off = 18 + tl
    if version == 2:
        (nl,) = struct.unpack_from("<I", data, off)
        off += 4 + nl
    return typ, None if count == COUNT_STREAM else count, version, data[off:]


def le_ints(body, w):
    """The little-endian unsigned integers of width w in body."""
    fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}[w]
    return list(struct.unpack("<%d%s" % (len(body) // w, fmt),
                              body[:len(body) // w * w]))


def tokens(data):
    """(V, the ids) of an idx[V] token stream."""
    typ, _, _, body = psk_parse(data)
    m = re.fullmatch(r"idx\[(\d+)\]", typ)
    if m is None:
        raise ValueError("not a token stream: " + typ)
    v = int(m.group(1))
    return v, le_ints(body, idx_width(v))


def read_frames(data):
    """The frame stream's header fields and a list of (id, line, values)."""
    if data[:4] != b"PSKF":
        raise ValueError("not a frame stream")
    (version, kind, unit, n, norm, k, sseed, mseed, family,
     _reserved) = struct.unpack_from("<HHIIIIQQII", data, 4)
    hdr = dict(version=version, kind=kind, unit=unit, n=n, norm=norm, k=k,
               shingle_seed=sseed, minhash_seed=mseed, family=family)
    off, frames = 48, []
    vs = 8 if kind == 1 else 4
    while off < len(data):
        idlen, linelen, count = struct.unpack_from("<III", data, off)
        off += 12
        fid = data[off:off + idlen]
        off += idlen
        line = data[off:off + linelen]
        off += linelen
        frames.append((fid, line, le_ints(data[off:off + count * vs], vs)))
        off += count * vs
    if off != len(data):
        raise ValueError("trailing bytes after the last frame")
    return hdr, frames
