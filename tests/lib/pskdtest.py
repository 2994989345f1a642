"""pskdtest - what the Python test scripts share: the .psk.d header and
token streams, the frame stream of the dedup programs, the ok/not ok
lines the runner counts, and the small "hello" tokenizers of the
tokenizer.json cases.  Written from pskd(5) and pskd-frames(5), not from
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
    """The frame stream's header fields and a list of (id, line, values),
    the values as a numpy array.  Version 2's rejected documents (the top
    bit of the id length) are listed in hdr["rejected"] by position."""
    import numpy as np
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
        if version == 2 and idlen & 0x80000000:
            idlen &= 0x7fffffff
            hdr.setdefault("rejected", []).append(len(frames))
        fid = data[off:off + idlen]
        off += idlen
        line = data[off:off + linelen]
        off += linelen
        frames.append((fid, line, np.frombuffer(
            data, dtype="<u8" if vs == 8 else "<u4", count=count, offset=off)))
        off += count * vs
    if off != len(data):
        raise ValueError("trailing bytes after the last frame")
    return hdr, frames


def byte_char(b):
    """The character GPT-2's ByteLevel alphabet gives byte b: the printable
    bytes themselves, the others U+0100 on in byte order."""
    keep = (list(range(33, 127)) + list(range(0xa1, 0xad)) +
            list(range(0xae, 0x100)))
    if b in keep:
        return chr(b)
    return chr(0x100 + sorted(set(range(256)) - set(keep)).index(b))


def hello_tokenizer(bytelevel):
    """The vocab and merges of the "hello" tokenizers (ids by hand):
    byte-level, each byte its own id and Ġh el ell Ġhell Ġhello 256-260;
    of characters, <unk> 0, ▁ 1, h e l o p 2-6, ▁h el ell ▁hell ▁hello
    7-11."""
    sp = "\u0120" if bytelevel else "\u2581"
    merges = [sp + " h", "e l", "el l", sp + "h ell", sp + "hell o"]
    if bytelevel:
        vocab = {byte_char(b): b for b in range(256)}
        for i, m in enumerate(merges):
            vocab[m.replace(" ", "")] = 256 + i
    else:
        vocab = {t: i for i, t in enumerate(
            ["<unk>", sp, "h", "e", "l", "o", "p"] +
            [m.replace(" ", "") for m in merges])}
    return vocab, merges
