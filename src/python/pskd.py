"""pskd - read and write .psk.d files from Python, in pskd-shuffle's order.

One module, the standard library and numpy (torch is used when it is
importable):

    read_header(path)        the header of a .psk.d file
    PskdDataset(path)        a map-style dataset over the file, np.memmap
                             underneath (nothing is copied at open)
    permutation(n, seed, epoch[, positions])
                             pskd-shuffle's order, vectorised
    PskdSampler(n, seed, epoch=1, rank=0, world=1, start=0)
    PskdBatchSampler(n, batch_size, seed, epoch=1, rank=0, world=1, start=0)
                             samplers in that order, with set_epoch and
                             state_dict / load_state_dict for resuming
    loader(dataset, batch_size, seed, ...)
                             a DataLoader that yields exactly the batches
                             of pskd-shuffle -B
    write(path, type, samples, encodings=None)
                             a .psk.d file, the bytes pskd-pack writes

Errors are PskdError, whose message starts with the container's code
(E9001 ... E9005) like the C programs' messages: a header, type or value
the C programs refuse is refused here too, with the same code and text.
"""

import os
import struct

import numpy as np

try:
    if os.environ.get("PSKD_NO_TORCH"):     # numpy alone, a faster import
        raise ImportError
    import torch
    from torch.utils.data import Sampler as _SamplerBase
except ImportError:
    torch = None
    _SamplerBase = object

__all__ = ["PskdError", "Header", "Leaf", "read_header", "PskdDataset",
           "permutation", "PskdSampler", "PskdBatchSampler", "loader",
           "write"]

MAGIC = b"PSKD"
COUNT_STREAM = 2**64 - 1
_ENC_NAMES = {0: "f64", 1: "f32", 2: "bf16"}
_ENC_WIDTH = {0: 8, 1: 4, 2: 2}


class PskdError(Exception):
    """A .psk.d error; .code is 9001 ... 9005."""

    def __init__(self, code, msg):
        super().__init__("E%d: %s" % (code, msg))
        self.code = code


# ---- the sample type ----------------------------------------------------

class Leaf:
    """One leaf: idx[bound] or a real, with its dimensions."""

    def __init__(self, real, bound, dims, names):
        self.real = real
        self.bound = bound
        self.dims = tuple(dims)
        self.names = tuple(names)
        self.enc = 0
        self.width = 8 if real else _idx_width(bound)
        self.offset = 0

    @property
    def nelem(self):
        n = 1
        for d in self.dims:
            n *= d
        return n

    @property
    def size(self):
        return self.nelem * self.width

    def __repr__(self):
        dims = "".join("[%s: %d]" % (m, d) if m else "[%d]" % d
                       for d, m in zip(self.dims, self.names))
        return ("ℝ" if self.real else "idx[%d]" % self.bound) + dims


def _idx_width(bound):
    m = bound - 1
    return 1 if m <= 0xFF else 2 if m <= 0xFFFF else 4 if m <= 0xFFFFFFFF \
        else 8


# The parser is src/lib/type.c's, rule for rule and message for message,
# so that a header one reader refuses the other refuses too.
_MAXDIM = 8
_MAXLEAVES = 65536
_MAXDEPTH = 64
_TYPE_MAX = 1 << 20
_M64 = 2**64 - 1


def _isname0(c):
    return "a" <= c <= "z" or "A" <= c <= "Z" or c == "_"


def _isname(c):
    return _isname0(c) or "0" <= c <= "9"


class _TypeParser:
    def __init__(self, text):
        self.s, self.n, self.i = text, len(text), 0
        self.leaves, self.depth = [], 0

    def err(self, at, what):
        # Columns count characters from 1, as the C parser's do.
        raise PskdError(9001, "type: column %d: %s" % (at + 1, what))

    def ws(self):
        while self.i < self.n and self.s[self.i] in " \t\n\r":
            self.i += 1

    def peek(self, c):
        self.ws()
        return self.i < self.n and self.s[self.i] == c

    def expect(self, c):
        if self.peek(c):
            self.i += 1
        else:
            self.err(self.i, "expected '%s'" % c)

    def atom(self):
        """(name, None) or (None, number)."""
        self.ws()
        start, s = self.i, self.s
        if self.i < self.n and "0" <= s[self.i] <= "9":
            v = 0
            while self.i < self.n and "0" <= s[self.i] <= "9":
                v = v * 10 + ord(s[self.i]) - 48
                if v > _M64:
                    self.err(start, "number too large")
                self.i += 1
            return None, v
        if self.i < self.n and _isname0(s[self.i]):
            while self.i < self.n and _isname(s[self.i]):
                self.i += 1
            return s[start:self.i], None
        self.err(start, "expected a number or a name")

    def dim(self, dims, names):
        if len(dims) == _MAXDIM:
            self.err(self.i, "too many dimensions")
        self.ws()
        start = self.i
        name, v = self.atom()
        if name is not None:
            if not self.peek(":"):
                self.err(start, "type not closed: dimension %s has no "
                         "literal size" % name)
            self.i += 1
            self.ws()
            start = self.i
            name2, v = self.atom()
            if name2 is not None:
                self.err(start, "type not closed: dimension %s: %s is not "
                         "a literal" % (name, name2))
        if v == 0:
            self.err(start, "a dimension must be at least 1")
        dims.append(v)
        names.append(name)
        self.expect("]")

    def leaf(self):
        if len(self.leaves) == _MAXLEAVES:
            self.err(self.i, "too many leaves")
        self.ws()
        start, s = self.i, self.s
        if self.i < self.n and s[self.i] == "ℝ":
            real, bound = True, 0
            self.i += 1
        elif s.startswith("idx", self.i) and (
                self.i + 3 == self.n or not _isname(s[self.i + 3])):
            self.i += 3
            self.expect("[")
            self.ws()
            start = self.i
            name, bound = self.atom()
            if name is not None:
                self.err(start, "type not closed: idx bound %s has no "
                         "literal" % name)
            if bound == 0:
                self.err(start, "idx[0] has no values")
            self.expect("]")
            real = False
        else:
            self.err(start, "not a data type (expected ℝ, idx or '(')")
        dims, names = [], []
        while self.peek("["):
            self.i += 1
            self.dim(dims, names)
        self.leaves.append(Leaf(real, bound, dims, names))
        return len(self.leaves) - 1

    def type(self):
        """The shape: a leaf's index, or a list of members' shapes
        (parentheses around one type only group it)."""
        self.ws()
        if self.i >= self.n or self.s[self.i] != "(":
            return self.leaf()
        self.depth += 1
        if self.depth > _MAXDEPTH:
            self.err(self.i, "nested too deeply")
        self.i += 1
        members = []
        while True:
            members.append(self.type())
            if self.peek(","):
                self.i += 1
                continue
            self.expect(")")
            break
        self.depth -= 1
        return members if len(members) > 1 else members[0]


def _parse_type(raw, shape=False):
    """Leaves of a type (bytes or str) in storage order; None for a
    params type.  With shape, (leaves, shape) (see _TypeParser.type)."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    try:
        text = bytes(raw).decode("utf-8")
    except UnicodeDecodeError as e:
        raise PskdError(9001, "type: byte %d: invalid UTF-8"
                        % (e.start + 1)) from None
    p = _TypeParser(text)
    if "\0" in text:
        p.err(text.index("\0"), "NUL byte in type")
    p.ws()
    if text.startswith("params", p.i) and (
            p.i + 6 == p.n or not _isname(text[p.i + 6])):
        p.i += 6
        name, _ = p.atom()
        if name is None:
            p.err(p.i, "params needs a name")
        params = True
        tree = None
    else:
        tree = p.type()
        params = False
    p.ws()
    if p.i != p.n:
        p.err(p.i, "unexpected text after the type")
    if params:
        return (None, None) if shape else None
    _layout(p.leaves)
    return (p.leaves, tree) if shape else p.leaves


def _layout(leaves):
    """Widths, offsets and the sample size; E9001 past 64 bits."""
    off = 0
    for leaf in leaves:
        leaf.width = _ENC_WIDTH[leaf.enc] if leaf.real else \
            _idx_width(leaf.bound)
        leaf.offset = off
        off += leaf.size
        if leaf.nelem > _M64 or leaf.size > _M64 or off > _M64:
            raise PskdError(9001, "type: the sample size overflows 64 "
                            "bits")
    return off


# ---- the header ---------------------------------------------------------

class Header:
    """version, type (text), count (None while streaming), leaves (None
    for a params type), sample_size, size (bytes of the header)."""

    def __repr__(self):
        return "Header(version=%d, type=%r, count=%r, sample_size=%r)" % (
            self.version, self.type, self.count, self.sample_size)


def _magic_error(buf):
    what = "no PSKD magic"
    if buf[:1] == b"{":
        what = "JSON Lines documents: pskd-tok makes token streams of them"
    elif buf[:4] == b"PSKF":
        what = "a dedup frame stream: pskd-lsh turns it back into documents"
    elif buf[:4] == b"\x28\xb5\x2f\xfd":
        what = "zstd-compressed: pipe it through pskd-unzst"
    elif buf[:2] == b"\x1f\x8b":
        what = "gzip-compressed: pipe it through pskd-unzst"
    return PskdError(9002, "not a .psk.d file (%s)" % what)


def _header(buf, total=None):
    """Parse a header (src/lib/psk.c's rules).  buf holds its bytes, total
    is how many the file has (default len(buf))."""
    n = len(buf) if total is None else total
    if n == 0:
        raise PskdError(9002, "not a .psk.d file (empty input)")
    if bytes(buf[:4]) != MAGIC[:min(4, n)]:
        raise _magic_error(bytes(buf[:4]))
    if n < 10:
        raise PskdError(9003, "truncated header (%d bytes)" % n)
    version, tlen = struct.unpack_from("<HI", buf, 4)
    if version not in (1, 2):
        raise PskdError(9002, "unsupported .psk.d version %d" % version)
    if n - 10 < tlen + 8:
        raise PskdError(9003, "truncated header (type of %d bytes, %d "
                        "bytes in all)" % (tlen, n))
    if tlen > _TYPE_MAX:
        raise PskdError(9001, "type text of %d bytes is too long" % tlen)
    h = Header()
    h.version = version
    h.leaves = _parse_type(bytes(buf[10:10 + tlen]))
    h.type = bytes(buf[10:10 + tlen]).decode("utf-8")
    (count,) = struct.unpack_from("<Q", buf, 10 + tlen)
    h.count = None if count == COUNT_STREAM else count
    off = 18 + tlen
    if version == 2:
        if n - off < 4:
            raise PskdError(9003, "truncated header (leaf encodings)")
        (nl,) = struct.unpack_from("<I", buf, off)
        off += 4
        if n - off < nl:
            raise PskdError(9003, "truncated header (%d leaf encodings)"
                            % nl)
        codes = bytes(buf[off:off + nl])
        off += nl
        leaves = h.leaves or []
        if nl != len(leaves):
            raise PskdError(9002, "header lists %d leaf encodings for %d "
                            "leaves" % (nl, len(leaves)))
        for k, (leaf, c) in enumerate(zip(leaves, codes)):
            if c > 2 or (c != 0 and not leaf.real):
                raise PskdError(9002, "leaf %d: invalid encoding code %d"
                                % (k, c))
            leaf.enc = c
        _layout(leaves)
        if not any(l.real and l.enc != 0 for l in leaves):
            raise PskdError(9002, "version 2 header with no narrow leaf")
    h.size = off
    h.sample_size = None if h.leaves is None else sum(
        l.size for l in h.leaves)
    return h


def read_header(path):
    """The header of the .psk.d file at path (a Header)."""
    with open(path, "rb") as f:
        total = os.fstat(f.fileno()).st_size
        buf = f.read(10)
        if len(buf) >= 10 and buf[:4] == MAGIC:
            (tlen,) = struct.unpack_from("<I", buf, 6)
            buf += f.read(min(tlen, _TYPE_MAX) + 12)
            if len(buf) >= 22 + tlen and buf[4] == 2:
                (nl,) = struct.unpack_from("<I", buf, 18 + tlen)
                buf += f.read(min(nl, 1 << 20))
    return _header(buf, max(total, len(buf)))


# ---- the dataset --------------------------------------------------------

def _leaf_dtype(leaf):
    if not leaf.real:
        return np.dtype("<u%d" % leaf.width)
    return np.dtype({0: "<f8", 1: "<f4", 2: "<u2"}[leaf.enc])


def _decode(leaf, a):
    if not leaf.real:
        return a
    if leaf.enc == 2:       # bf16: the upper half of an f32
        return (a.astype(np.uint32) << np.uint32(16)).view(np.float32)
    return a


def _long(a):
    a = np.ascontiguousarray(a, dtype=np.int64)
    return torch.from_numpy(a) if torch is not None else a


class PskdDataset:
    """A map-style dataset over a .psk.d file (np.memmap, no copy).

    Window samples -- two idx leaves of one bound and one dimension of the
    same length, as (idx[V][seq: T], idx[V][seq: T]), or one leaf
    idx[V][seq: T+1] as pskd-window --single writes them -- come back as
    (input, target) LongTensors of T ids (int64 numpy arrays without
    torch).  Any other type comes back as its leaves: a numpy array, or a
    tuple of arrays in storage order; f32 and bf16 leaves as float32.

    With seq=T (and stride=S, default T) the file must be a token stream,
    idx[V] with no dimensions (else E9005), and sample k is the window
    tokens[k*S .. k*S+T] of pskd-window -t T -s S, cut on the fly.

    An index may be an int or an array of ints: an array reads the whole
    batch into one buffer (a pread per sample) and returns stacked arrays,
    (B, T) for windows.
    """

    def __init__(self, path, seq=None, stride=None):
        self.path = path
        h = self.header = read_header(path)
        if h.leaves is None:
            raise PskdError(9001, "type not closed: a params type has no "
                            "layout to read")
        if h.count is None:
            raise PskdError(9003, "unfinished stream: the count was never "
                            "written (a writer did not finish)")
        ss = h.sample_size
        data = os.path.getsize(path) - h.size
        if h.count * ss > _M64:
            raise PskdError(9003, "count %d x sample size %d overflows 64 "
                            "bits" % (h.count, ss))
        want = h.count * ss
        if data < want:
            raise PskdError(9003, "truncated at sample %d (%d samples "
                            "declared)" % (data // ss if ss else 0, h.count))
        if data > want:
            raise PskdError(9002, "%d bytes after the last sample"
                            % (data - want))
        leaves = h.leaves
        self.kind = "leaves"
        if seq is not None:
            if seq < 1 or (stride is not None and stride < 1):
                raise ValueError("seq and stride must be at least 1")
            if len(leaves) != 1 or leaves[0].real or leaves[0].dims:
                raise PskdError(9005, "not a token stream: type %s is not "
                                "idx[V]" % h.type)
            self.kind = "tokens"
            self.seq, self.stride = seq, stride or seq
            n = h.count
            self._len = max(0, 1 + (n - (seq + 1)) // self.stride) \
                if n >= seq + 1 else 0
        elif (len(leaves) == 2 and not leaves[0].real and
              not leaves[1].real and leaves[0].bound == leaves[1].bound and
              len(leaves[0].dims) == 1 and leaves[0].dims == leaves[1].dims):
            self.kind = "pair"
            self.seq = leaves[0].dims[0]
        elif (len(leaves) == 1 and not leaves[0].real and
              leaves[0].names == ("seq",) and leaves[0].dims[0] >= 2):
            self.kind = "single"
            self.seq = leaves[0].dims[0] - 1
        if self.kind != "tokens":
            self._len = h.count
        self._map = None
        self._fd = None

    def _open(self):
        # Opened lazily, so that DataLoader workers map the file themselves.
        h, leaves = self.header, self.header.leaves
        n = h.count
        if self.kind in ("pair", "single", "tokens"):
            dt = _leaf_dtype(leaves[0])
            per = h.sample_size // leaves[0].width
            if n == 0:
                self._map = np.zeros((0, per), dt)
            else:
                self._map = np.memmap(self.path, dtype=dt, mode="r",
                                      offset=h.size, shape=(n, per))
            if self.kind == "tokens":
                self._map = self._map.reshape(-1)
        else:
            dt = np.dtype({
                "names": ["l%d" % i for i in range(len(leaves))],
                "formats": [(_leaf_dtype(l), l.dims) if l.dims else
                            _leaf_dtype(l) for l in leaves],
                "offsets": [l.offset for l in leaves],
                "itemsize": h.sample_size})
            if n == 0 or h.sample_size == 0:
                self._map = np.zeros((n,), dt)
            else:
                self._map = np.memmap(self.path, dtype=dt, mode="r",
                                      offset=h.size, shape=(n,))
        return self._map

    def __getstate__(self):
        s = self.__dict__.copy()
        s["_map"] = s["_fd"] = None
        return s

    def __del__(self):
        if getattr(self, "_fd", None) is not None:
            os.close(self._fd)

    def _rows(self, idx):
        """Whole samples for an array of indices, as rows of the map's
        dtype: one pread(2) per sample into one buffer.  Measured 3x faster
        than fancy indexing of the memmap while its pages are not yet
        mapped (every page of an epoch, in every worker), and no slower
        after."""
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDONLY)
        h, m = self.header, self._map
        flat = idx.reshape(-1)
        if flat.size and (flat.min() < 0 or flat.max() >= self._len):
            raise IndexError("an index out of 0..%d" % (self._len - 1))
        ss = h.sample_size
        buf = np.empty((flat.size, ss), dtype=np.uint8)
        for r, k in enumerate(flat.tolist()):
            if os.preadv(self._fd, [buf[r]], h.size + k * ss) != ss:
                raise PskdError(9003, "truncated while reading (the file "
                                "changed)")
        rows = buf.view(m.dtype)
        return rows.reshape(idx.shape + m.shape[1:])

    def __len__(self):
        return self._len

    def __getitem__(self, i):
        batch = not np.isscalar(i)
        if batch:
            i = np.asarray(i, dtype=np.int64)
            if i.size and (i.min() < 0 or i.max() >= self._len):
                raise IndexError("an index out of 0..%d" % (self._len - 1))
        elif not 0 <= i < self._len:
            if -self._len <= i < 0:
                i += self._len
            else:
                raise IndexError("sample %d of %d" % (i, self._len))
        m = self._map if self._map is not None else self._open()
        T = self.seq if self.kind != "leaves" else 0
        if self.kind == "tokens":
            start = np.asarray(i, dtype=np.int64) * self.stride
            rows = m[start[..., None] + np.arange(T + 1)]
            self._bounds(rows, 0, start)
        elif batch and m.size:
            rows = self._rows(i)
        else:
            rows = m[i]
        if self.kind == "pair":
            self._bounds(rows, None, i)
            return _long(rows[..., :T]), _long(rows[..., T:])
        if self.kind == "single":
            self._bounds(rows, 0, i)
        if self.kind in ("single", "tokens"):
            return _long(rows[..., :T]), _long(rows[..., 1:])
        for k, leaf in enumerate(self.header.leaves):
            self._bounds(rows["l%d" % k], k, i)
        out = tuple(_decode(leaf, np.array(rows["l%d" % k]))
                    for k, leaf in enumerate(self.header.leaves))
        return out[0] if len(out) == 1 else out

    def _bounds(self, a, k, idx):
        """E9004 for an id of leaf k (None: a pair, both leaves) at or
        above its bound in a, the rows of samples idx; the check costs
        nothing when the bound fills the width."""
        leaf = self.header.leaves[k or 0]
        if leaf.real or (leaf.width < 8 and leaf.bound == 1 << (8 *
                                                                 leaf.width)):
            return
        if a.size == 0 or a.max() < leaf.bound:
            return
        if np.isscalar(idx) or np.ndim(idx) == 0:
            idx = np.asarray([idx])
            a = a.reshape((1,) + a.shape)
        flat = a.reshape(len(np.asarray(idx).reshape(-1)), -1)
        r, e = np.argwhere(flat >= leaf.bound)[0]
        v = int(flat[r, e])
        where = int(np.asarray(idx).reshape(-1)[r])
        if self.kind == "tokens":
            raise PskdError(9004, "token %d: %d out of bound idx[%d]"
                            % (where + e, v, leaf.bound))
        if k is None:           # a pair: the leaf is in the second half
            k, e = divmod(e, leaf.nelem)
        raise PskdError(9004, "sample %d, leaf %d, element %d: %d out of "
                        "bound idx[%d]" % (where, k, e, v, leaf.bound))


# ---- the permutation (pskd-shuffle(1), "THE PERMUTATION") -------------

_M64 = 2**64 - 1
_GOLDEN = 0x9E3779B97F4A7C15
ROUNDS = 6


def _mix(z):
    """splitmix64's finalizer on a Python int."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


_C1 = np.uint64(0xBF58476D1CE4E5B9)
_C2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def _mix_inplace(z, u):
    """splitmix64's finalizer on a uint64 array, in place; u is scratch."""
    np.right_shift(z, _S30, out=u)
    z ^= u
    z *= _C1
    np.right_shift(z, _S27, out=u)
    z ^= u
    z *= _C2
    np.right_shift(z, _S31, out=u)
    z ^= u


class _Perm:
    def __init__(self, n, seed, epoch):
        if not 0 <= n <= _M64 or not 0 <= seed <= _M64 or \
                not 1 <= epoch <= _M64:
            raise ValueError("n and seed are 0 to 2^64-1, epoch 1 to "
                             "2^64-1")
        self.n = n
        bits = (n - 1).bit_length() if n >= 2 else 0
        self.lo = np.uint64(bits // 2)
        self.maskl = np.uint64((1 << (bits - bits // 2)) - 1)
        self.maskr = np.uint64((1 << (bits // 2)) - 1)
        s = _mix(_mix((seed + _GOLDEN) & _M64) ^ epoch)
        self.keys = [np.uint64(_mix((s + (r + 1) * _GOLDEN) & _M64))
                     for r in range(ROUNDS)]

    def feistel(self, x):
        l = x >> self.lo
        r = x & self.maskr
        t, u = np.empty_like(x), np.empty_like(x)
        for i in range(0, ROUNDS, 2):
            np.bitwise_xor(r, self.keys[i], out=t)
            _mix_inplace(t, u)
            t &= self.maskl
            l ^= t
            np.bitwise_xor(l, self.keys[i + 1], out=t)
            _mix_inplace(t, u)
            t &= self.maskr
            r ^= t
        l <<= self.lo
        l |= r
        return l

    def at(self, pos):
        pos = np.asarray(pos, dtype=np.uint64)
        if self.n <= 1:
            return pos.copy()
        out = np.empty_like(pos)
        flat, res = pos.reshape(-1), out.reshape(-1)
        n = np.uint64(self.n)
        with np.errstate(over="ignore"):
            # Chunks that stay in the cache through the rounds.
            for k in range(0, flat.size, 16384):
                o = self.feistel(flat[k:k + 16384])
                sel = np.flatnonzero(o >= n)
                while sel.size:
                    v = self.feistel(o[sel])
                    o[sel] = v
                    sel = sel[v >= n]
                res[k:k + 16384] = o
        return out


def _positions(first, step, count):
    return np.uint64(first) + np.arange(count, dtype=np.uint64) * \
        np.uint64(step)


def permutation(n, seed, epoch=1, positions=None):
    """pskd-shuffle's order of 0..n-1 for (seed, epoch): element
    permutation(...)[j] is the sample at position j.  With positions
    (an array of positions < n) only those, in O(len) time and memory.
    Returns a uint64 array."""
    p = _Perm(n, seed, epoch)
    if positions is None:
        positions = np.arange(n, dtype=np.uint64)
    return p.at(positions)


class PskdSampler(_SamplerBase):
    """The sample indices of pskd-shuffle -s seed -e epoch --rank rank
    --world world --start start: position j of rank r's slice is position
    r + world*j of the epoch's order, j < n // world.

    The order depends on nothing else (not on DataLoader workers).
    set_epoch(e) starts epoch e at position 0.  state_dict() saves the
    position; load_state_dict() resumes there.
    """

    step = 1    # positions per item

    def __init__(self, n, seed, epoch=1, rank=0, world=1, start=0):
        if world < 1 or not 0 <= rank < world:
            raise ValueError("need 0 <= rank < world")
        if epoch < 1:
            raise ValueError("epochs count from 1")
        self.n, self.seed, self.epoch = n, seed, epoch
        self.rank, self.world = rank, world
        self.m = n // world
        if not 0 <= start <= self.m:
            raise ValueError("start %d is past the end of rank %d's %d "
                             "samples" % (start, rank, self.m))
        self.start = start
        self._begin = start
        self._yielded = 0

    def set_epoch(self, epoch):
        """Start epoch epoch at position 0: iteration and state_dict()
        both start there, whatever the last epoch left."""
        if epoch < 1:
            raise ValueError("epochs count from 1")
        self.epoch, self.start = epoch, 0
        self._begin, self._yielded = 0, 0

    def _indices(self, first, count):
        p = _Perm(self.n, self.seed, self.epoch)
        return p.at(_positions(self.rank + self.world * first, self.world,
                               count)).astype(np.int64)

    def __len__(self):
        return (self.m - self.start) // self.step

    def __iter__(self):
        self._begin, self._yielded = self.start, 0
        j, end = self.start, self.start + len(self) * self.step
        while j < end:
            k = min(end - j, max(self.step, 65536 // self.step * self.step))
            idx = self._indices(j, k)
            j += k
            for item in self._items(idx):
                self._yielded += 1
                yield item

    def _items(self, idx):
        return idx.tolist()

    def state_dict(self, consumed=None):
        """The state to resume from.  consumed is the number of items
        the trainer has taken in this iteration (default: those the
        sampler has handed out, which with DataLoader workers runs ahead
        of the trainer by the prefetched items)."""
        if consumed is None:
            consumed = self._yielded
        return {"n": self.n, "seed": self.seed, "epoch": self.epoch,
                "rank": self.rank, "world": self.world,
                "position": self._begin + consumed * self.step}

    def load_state_dict(self, state):
        if state["n"] != self.n:
            raise ValueError("state of n=%d for a sampler of n=%d"
                             % (state["n"], self.n))
        self.seed, self.epoch = state["seed"], state["epoch"]
        self.rank, self.world = state["rank"], state["world"]
        self.m = self.n // self.world
        self.start = state["position"]
        self._begin, self._yielded = self.start, 0


class PskdBatchSampler(PskdSampler):
    """The batches of pskd-shuffle -B batch_size: arrays of batch_size
    sample indices (the short last batch is dropped).  Use it as the
    sampler of a DataLoader with batch_size=None, so that a whole batch is
    read with one call: see loader().  start is in samples."""

    def __init__(self, n, batch_size, seed, epoch=1, rank=0, world=1,
                 start=0):
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.step = batch_size
        super().__init__(n, seed, epoch, rank, world, start)

    def _items(self, idx):
        return idx.reshape(-1, self.step)


def loader(dataset, batch_size, seed, epoch=1, rank=0, world=1, start=0,
           **kwargs):
    """A torch DataLoader over dataset yielding the batches of
    pskd-shuffle -B batch_size -s seed -e epoch, each batch read into one
    buffer at once.  The sampler is loader(...).sampler."""
    if torch is None:
        raise ImportError("pskd.loader needs torch (python3-torch)")
    s = PskdBatchSampler(len(dataset), batch_size, seed, epoch, rank, world,
                         start)
    return torch.utils.data.DataLoader(dataset, sampler=s, batch_size=None,
                                       **kwargs)


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
