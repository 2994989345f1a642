"""_pskd_write - pskd.py's writer: a .psk.d file, the bytes pskd-pack
writes.  Part of pskd; import pskd, not this."""

import os
import struct

import numpy as np

from _pskd_type import MAGIC, COUNT_STREAM, PskdError, _parse_type, _layout

# ---- the writer (pskd-pack's bytes) ---------------------------------------

_ENC_CODES = {"f64": 0, "f32": 1, "bf16": 2}
_F32_NAN = np.uint32(0x7FC00000)


def _set_encodings(leaves, encodings):
    nreal = sum(l.real for l in leaves)
    if encodings is None:
        names = ["f64"] * nreal
    elif isinstance(encodings, str):
        names = encodings.split(",") if encodings else []
    else:
        names = list(encodings)
    if len(names) != nreal:
        raise PskdError(9005, "%d encodings given for %d real leaves"
                        % (len(names), nreal))
    it = iter(names)
    for leaf in leaves:
        if leaf.real:
            name = next(it)
            if name not in _ENC_CODES:
                raise PskdError(9001, "unknown encoding '%s' (f64, f32 or "
                                "bf16)" % name)
            leaf.enc = _ENC_CODES[name]
    _layout(leaves)


def _leaf_bytes(leaf, leaf_no, v, first, rows=False):
    """The stored bytes of leaf values v: one sample's (rows False), or
    rows of samples from sample first on (an array of shape (n,)+dims).
    E9004 for a value that is not of the leaf, E9005 for a wrong shape."""
    try:
        a = np.asarray(v)
        if not leaf.real and not isinstance(v, np.ndarray) and \
                a.dtype.kind == "f":
            # Python ints past 2^63 beside small ones: numpy would make
            # them floats; keep every int exact.
            a = np.asarray(v, dtype=object)
    except ValueError:
        raise PskdError(9005, "sample %d, leaf %d: the sample does not "
                        "have the shape of the type" % (first, leaf_no)) \
            from None
    want = a.shape[:1] + leaf.dims if rows else leaf.dims
    if a.shape != want:
        raise PskdError(9005, "sample %d, leaf %d: shape %s, not %s (the "
                        "sample does not have the shape of the type)"
                        % (first, leaf_no, a.shape, want))
    per = max(leaf.nelem, 1)
    flat = a.reshape(-1)
    if flat.size == 0:
        return b""

    def bad(e, why):
        k, el = divmod(int(e), per) if rows else (0, int(e))
        return PskdError(9004, "sample %d, leaf %d, element %d: %s %s" % (
            first + k, leaf_no, el, _show(flat[e]), why))

    kind = a.dtype.kind
    if not leaf.real:
        if kind == "O":
            for e, x in enumerate(flat.tolist()):
                if isinstance(x, bool) or not isinstance(x, (int,
                                                             np.integer)):
                    raise bad(e, "is not an index (a whole number)")
                if not 0 <= x < leaf.bound:
                    raise bad(e, "out of bound idx[%d]" % leaf.bound)
            return np.array(flat.tolist(), dtype="<u%d" % leaf.width
                            ).tobytes()
        if kind not in "iu":     # 1.0 is not an index in pskd-pack either
            raise bad(0, "is not an index (a whole number)")
        if flat.size:
            if kind == "i" and flat.min() < 0:
                raise bad(int(np.argmax(flat < 0)), "out of bound idx[%d]"
                          % leaf.bound)
            if leaf.bound <= np.iinfo(flat.dtype).max and \
                    flat.max() >= leaf.bound:
                raise bad(int(np.argmax(flat >= leaf.bound)),
                          "out of bound idx[%d]" % leaf.bound)
        return flat.astype("<u%d" % leaf.width).tobytes()
    if kind == "O":
        try:
            d = np.array([_real(x) for x in flat.tolist()], dtype=np.float64)
        except TypeError:
            for e, x in enumerate(flat.tolist()):
                try:
                    _real(x)
                except TypeError:
                    raise bad(e, "is not a number") from None
    elif kind in "iuf":
        d = flat.astype(np.float64)
    else:
        raise bad(0, "is not a number")
    nan = np.isnan(d)
    if leaf.enc == 0:
        bits = d.view(np.uint64).copy()
        bits[nan] = np.uint64(0x7FF8000000000000)  # the NaN of "NaN"
        return bits.astype("<u8").tobytes()
    with np.errstate(over="ignore"):
        f = d.astype(np.float32)
    ok = (f.astype(np.float64) == d) | nan
    bits = f.view(np.uint32).copy()
    bits[nan] = _F32_NAN
    if leaf.enc == 2:
        ok &= (bits & np.uint32(0xFFFF)) == 0
    if not ok.all():
        raise bad(int(np.argmin(ok)), "is not exactly representable in %s"
                  % ("f32" if leaf.enc == 1 else "bf16"))
    if leaf.enc == 1:
        return bits.astype("<u4").tobytes()
    return (bits >> np.uint32(16)).astype("<u2").tobytes()


def _real(x):
    """A Python number as f64, as strtod reads its decimal text."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(
            x, (int, float, np.integer, np.floating)):
        raise TypeError(x)
    try:
        return float(x)
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


def _show(x):
    if isinstance(x, (float, np.floating)):
        return repr(float(x))
    return str(x)


def _sample_bytes(leaves, tree, sample, k, out):
    """Append one sample's bytes to out, walking the shape of the type."""
    if isinstance(tree, int):
        out += _leaf_bytes(leaves[tree], tree, sample, k)
        return
    if isinstance(sample, np.ndarray) or not isinstance(
            sample, (tuple, list)) or len(sample) != len(tree):
        raise PskdError(9005, "sample %d: not a tuple of %d members (the "
                        "sample does not have the shape of the type)"
                        % (k, len(tree)))
    for member, value in zip(tree, sample):
        _sample_bytes(leaves, member, value, k, out)


def write(path, type, samples, encodings=None):
    """Write samples of type (Presk syntax, as pskd-pack -t takes it) to a
    .psk.d file at path, the bytes pskd-pack writes for the same samples
    and encodings (a list or "f64,f32,bf16", one per real leaf; default
    f64): version 2 only when a leaf is narrower than f64.

    samples is any iterable (an iterator is read once, as it comes): each
    sample a value of the type -- a number or nested list or numpy array
    for a leaf, a tuple or list of members for a tuple type -- or, for a
    one-leaf type, a numpy array of shape (n,) + the leaf's dimensions.
    The count is written when the samples end.  The file is written to
    ".NAME.tmp.PID" beside path and renamed into place when complete, as
    the C programs do: an exception leaves nothing.  Refusals are
    pskd-pack's: E9001 a type that is not closed, E9004 a value out of its
    bound, not a number, or not exact in its encoding, E9005 a sample not
    of the type's shape or the wrong number of encodings.  Returns the
    number of samples written."""
    leaves, tree = _parse_type(type, shape=True)
    if leaves is None:
        raise PskdError(9001, "type not closed: a params type has no "
                        "layout to pack")
    _set_encodings(leaves, encodings)
    text = type.encode("utf-8")
    narrow = any(l.real and l.enc != 0 for l in leaves)
    head = MAGIC + struct.pack("<HI", 2 if narrow else 1, len(text)) + \
        text + struct.pack("<Q", COUNT_STREAM)
    if narrow:
        head += struct.pack("<I", len(leaves)) + bytes(l.enc for l in leaves)
    path = os.fspath(path)
    folder, base = os.path.split(path)
    tmp = os.path.join(folder, ".%s.tmp.%d" % (base, os.getpid()))
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                 getattr(os, "O_CLOEXEC", 0), 0o666)
    count = 0
    try:
        with os.fdopen(fd, "wb", buffering=1 << 20) as f:
            f.write(head)
            if isinstance(samples, np.ndarray) and isinstance(tree, int):
                step = max(1, (1 << 20) // max(leaves[0].size, 1))
                for at in range(0, len(samples), step):
                    f.write(_leaf_bytes(leaves[0], 0, samples[at:at + step],
                                        at, rows=True))
                count = len(samples)
            else:
                buf = bytearray()
                for sample in samples:
                    _sample_bytes(leaves, tree, sample, count, buf)
                    count += 1
                    if len(buf) >= 1 << 20:
                        f.write(buf)
                        buf.clear()
                f.write(buf)
            f.flush()
            os.pwrite(f.fileno(), struct.pack("<Q", count), 10 + len(text))
            os.fsync(f.fileno())
        os.rename(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    dfd = os.open(folder or ".", os.O_RDONLY)
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
    return count
