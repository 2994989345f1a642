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
                             of pskd-shuffle -B (of pskd-mix -B over a
                             PskdMix)
    position_ids(seg), attention_mask(seg), cu_seqlens(seg),
    loss_mask(seg)           from the segment ids of pskd-window
                             --segments, what a trainer needs
    Mix(counts, weights, seed, epoch, length), mix_order(...)
                             pskd-mix's order
    PskdMix([(path, weight), ...]), PskdMixSampler, PskdMixBatchSampler
                             a mixture as a dataset, and its samplers
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
           "position_ids", "attention_mask", "cu_seqlens", "loss_mask",
           "Mix", "mix_order", "PskdMix", "PskdMixSampler",
           "PskdMixBatchSampler", "write"]

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


def _is_segments(leaf):
    """The boundary leaf of pskd-window --segments: idx[R+1][seg: R]."""
    return (not leaf.real and leaf.names == ("seg",) and
            leaf.bound == leaf.dims[0] + 1)


def _window_kind(leaves):
    """"pair" for (idx[V][T], idx[V][T]), "single" for idx[V][seq: T+1]."""
    if (len(leaves) == 2 and not leaves[0].real and not leaves[1].real and
            leaves[0].bound == leaves[1].bound and len(leaves[0].dims) == 1
            and leaves[0].dims == leaves[1].dims and
            leaves[1].names != ("seg",)):
        return "pair"
    if (len(leaves) == 1 and not leaves[0].real and
            leaves[0].names == ("seq",) and leaves[0].dims[0] >= 2):
        return "single"
    return None


class PskdDataset:
    """A map-style dataset over a .psk.d file (np.memmap, no copy).

    Window samples -- two idx leaves of one bound and one dimension of the
    same length, as (idx[V][seq: T], idx[V][seq: T]), or one leaf
    idx[V][seq: T+1] as pskd-window --single writes them -- come back as
    (input, target) LongTensors of T ids (int64 numpy arrays without
    torch).  With the segment ids of pskd-window --segments, a last leaf
    idx[T+2][seg: T+1], they come back as (input, target, segments), the
    segments a LongTensor of T+1 ids, which position_ids(),
    attention_mask(), cu_seqlens() and loss_mask() turn into what a
    trainer needs.  Any other type comes back as its leaves: a numpy array,
    or a tuple of arrays in storage order; f32 and bf16 leaves as float32.

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
        else:
            seg = _is_segments(leaves[-1])
            body = leaves[:-1] if seg else leaves
            kind = _window_kind(body)
            if kind is not None:
                self.seq = body[0].dims[0] - (kind == "single")
                if not seg:
                    self.kind = kind
                elif leaves[-1].dims[0] == self.seq + 1:
                    self.kind = kind + "+seg"
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
        if self.kind == "tokens":
            start = np.asarray(i, dtype=np.int64) * self.stride
            rows = m[start[..., None] + np.arange(self.seq + 1)]
            self._bounds(rows, 0, start)
        elif batch and m.size:
            rows = self._rows(i)
        else:
            rows = m[i]
        return self._finish(rows, i)

    def _finish(self, rows, i):
        """The samples of rows (of the map's dtype), numbers i, checked
        against their bounds, as __getitem__ returns them."""
        T = self.seq if self.kind != "leaves" else 0
        if self.kind == "pair":
            self._bounds(rows, None, i)
            return _long(rows[..., :T]), _long(rows[..., T:])
        if self.kind == "single":
            self._bounds(rows, 0, i)
        if self.kind in ("single", "tokens"):
            return _long(rows[..., :T]), _long(rows[..., 1:])
        for k, leaf in enumerate(self.header.leaves):
            self._bounds(rows["l%d" % k], k, i)
        if self.kind == "pair+seg":
            return _long(rows["l0"]), _long(rows["l1"]), _long(rows["l2"])
        if self.kind == "single+seg":
            x = rows["l0"]
            return _long(x[..., :T]), _long(x[..., 1:]), _long(rows["l1"])
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
    pskd-shuffle -B batch_size -s seed -e epoch (of pskd-mix's for a
    PskdMix), each batch read into one buffer at once.  The sampler is
    loader(...).sampler."""
    if torch is None:
        raise ImportError("pskd.loader needs torch (python3-torch)")
    if isinstance(dataset, PskdMix):
        s = PskdMixBatchSampler(dataset, batch_size, seed, epoch, rank,
                                world, start)
    else:
        s = PskdBatchSampler(len(dataset), batch_size, seed, epoch, rank,
                             world, start)
    return torch.utils.data.DataLoader(dataset, sampler=s, batch_size=None,
                                       **kwargs)


# ---- segments: what a trainer builds from pskd-window --segments -------

def _seg_starts(seg):
    """For segment ids (..., T+1) as pskd-window writes them: the input
    positions (..., T) where a segment starts (the first position, a change
    of id, and every position of padding, which is a segment of one), as
    a bool array or tensor."""
    if torch is not None and isinstance(seg, torch.Tensor):
        s = seg[..., :-1]
        st = torch.ones_like(s, dtype=torch.bool)
        st[..., 1:] = s[..., 1:] != s[..., :-1]
        return st | (s == 0)
    s = np.asarray(seg)[..., :-1]
    st = np.ones(s.shape, dtype=bool)
    st[..., 1:] = s[..., 1:] != s[..., :-1]
    return st | (s == 0)


def _tensor(a):
    return torch.from_numpy(np.ascontiguousarray(a)) \
        if torch is not None else a


def position_ids(seg):
    """Position ids (..., T): each input position's distance from the
    start of its segment (0 at the start of every document and on
    padding), as Megatron's reset_position_ids makes them."""
    st = np.asarray(_seg_starts(seg))
    ar = np.broadcast_to(np.arange(st.shape[-1]), st.shape)
    last = np.maximum.accumulate(np.where(st, ar, 0), axis=-1)
    return _tensor((ar - last).astype(np.int64))


def attention_mask(seg):
    """The block-diagonal causal mask (..., 1, T, T), True where input
    position i may attend to position j: j <= i in the same segment (the
    convention of torch's scaled_dot_product_attention; Megatron's
    attention_mask is its negation)."""
    st = np.asarray(_seg_starts(seg))
    key = np.cumsum(st, axis=-1)
    T = st.shape[-1]
    m = (key[..., :, None] == key[..., None, :]) & \
        np.tril(np.ones((T, T), dtype=bool))
    return _tensor(m[..., None, :, :])


def cu_seqlens(seg):
    """(cu_seqlens, max_seqlen) of variable-length attention over the rows
    of a batch (B, T+1) laid end to end: the int32 offsets of every
    segment's start and B*T at the end, and the longest segment."""
    st = np.asarray(_seg_starts(seg)).reshape(-1, np.shape(seg)[-1] - 1)
    B, T = st.shape
    starts = np.flatnonzero(st.reshape(-1))
    cu = np.append(starts, B * T).astype(np.int32)
    longest = int(np.diff(cu).max()) if cu.size > 1 else 0
    return _tensor(cu), longest


def loss_mask(seg, across=True):
    """1.0 where target position i (row token i+1) is a document's token,
    0.0 where it is padding; with across=False also 0.0 where the target
    starts another segment than its input's (the prediction of a
    document's first token from the one before, which Megatron's
    eod_mask_loss drops)."""
    s = np.asarray(seg)
    m = s[..., 1:] != 0
    if not across:
        m &= s[..., 1:] == s[..., :-1]
    return _tensor(m.astype(np.float32))


# ---- mixes: the order of pskd-mix (pskd-mix(1), "THE ORDER") ----------

_MIX_MAXWEIGHT = 1 << 31


def _weight_nano(w):
    """A weight (a str, int or float) in billionths, as pskd-mix parses
    FILE:WEIGHT: digits, and up to nine after a point."""
    import re
    t = w if isinstance(w, str) else repr(w) if isinstance(w, float) \
        else str(int(w))
    if isinstance(w, float) and "e" in t:
        t = "%.9f" % w
        t = t.rstrip("0").rstrip(".") if "." in t else t
    m = re.fullmatch(r"([0-9]+)(?:\.([0-9]{1,9}))?", t)
    if not m or int(m.group(1)) > 10**9:
        raise ValueError("weight %r: a number above 0 with at most nine "
                         "digits after the point" % (w,))
    v = int(m.group(1)) * 10**9 + int((m.group(2) or "").ljust(9, "0"))
    if v == 0:
        raise ValueError("weight %r: a number above 0" % (w,))
    return v


class Mix:
    """pskd-mix's order of an epoch over sources of counts[s] samples and
    weights[s]: mix.draws(rank, world, first, count) gives the sources and
    samples of positions first .. first+count-1 of rank's slice, as
    pskd-mix -s seed -e epoch [-L length] --rank rank --world world
    writes them.  bounds[s] is the most a prefix of an epoch may hold of
    source s more or fewer than its share."""

    def __init__(self, counts, weights, seed=0, epoch=1, length=None):
        import math
        k = len(counts)
        if k < 1 or k != len(weights) or k > 256:
            raise ValueError("1 to 256 sources, each with a weight")
        if epoch < 1:
            raise ValueError("epochs count from 1")
        if any(n < 1 for n in counts):
            raise ValueError("a source without samples")
        nano = [_weight_nano(w) for w in weights]
        g = 0
        for v in nano:
            g = math.gcd(g, v)
        self.m = [v // g for v in nano]
        if sum(self.m) >= _MIX_MAXWEIGHT:
            raise ValueError("the weights' ratios need whole numbers "
                             "summing past 2^31: give coarser weights")
        self.k, self.n = k, list(counts)
        self.seed, self.epoch = seed, epoch
        self.length = sum(counts) if length is None else length
        if self.length < 1:
            raise ValueError("an epoch of at least one position")
        self._plan()
        self.per = self.counts(self.length)
        self.base = [(epoch - 1) * c for c in self.per]
        if any(b > _M64 for b in self.base):
            raise ValueError("epoch %d: its draws overflow 64 bits" % epoch)

    def _plan(self):
        """The tree: the runs of the sources sorted heaviest first whose
        split leaves the most slack (pskd-mix(1))."""
        k, m = self.k, self.m
        order = sorted(range(k), key=lambda s: (-m[s], s))
        pre = [0]
        for s in order:
            pre.append(pre[-1] + m[s])
        best, cut = {}, {}
        for a in range(k):
            best[a, a] = 1.0 / float(m[order[a]])

        def slack(a, b, root):
            top = None
            for c in range(a, b):
                v = min(best[a, c], best[c + 1, b])
                if not root:
                    v -= 1.0 / float(pre[b + 1] - pre[a])
                if top is None or v > top:
                    top, cut[a, b] = v, c
            return top

        for length in range(2, k):
            for a in range(k - length + 1):
                best[a, a + length - 1] = slack(a, a + length - 1, False)
        if k >= 2:
            slack(0, k - 1, True)
        self.nodes = []     # (2a, m, 2m, left, right); leaves are ~s
        self.bounds = [0.0] * k

        def build(a, b, inv):
            if a == b:
                s = order[a]
                self.bounds[s] = (1.0 + float(m[s]) * inv) / 2
                return ~s
            me = len(self.nodes)
            self.nodes.append(None)
            c = cut[a, b]
            w = pre[b + 1] - pre[a]
            if me != 0:
                inv += 1.0 / float(w)
            left = build(a, c, inv)
            right = build(c + 1, b, inv)
            self.nodes[me] = (2 * (pre[c + 1] - pre[a]), w, 2 * w, left,
                              right)
            return me

        self.root = build(0, k - 1, 0.0)
        if k == 1:
            self.bounds[0] = 0.0

    @staticmethod
    def _share(node, c):
        a2, mm, m2 = (np.uint64(v) for v in node[:3])
        return a2 * (c // m2) + (a2 * (c % m2) + mm) // m2

    def counts(self, t):
        """The draws of each source in positions 0 .. t-1 of an epoch."""
        out = [0] * self.k

        def down(v, c):
            if v < 0:
                out[~v] = c
                return
            a2, mm, m2 = self.nodes[v][:3]
            left = (a2 * c + mm) // m2
            down(self.nodes[v][3], left)
            down(self.nodes[v][4], c - left)

        down(self.root, t)
        return out

    def locate(self, t):
        """(sources, draws): for epoch positions t (an array), the source
        each draws from and its draw number in the epoch."""
        t = np.asarray(t, dtype=np.uint64).reshape(-1)
        src = np.empty(t.size, dtype=np.int64)
        draw = np.empty(t.size, dtype=np.uint64)
        one = np.uint64(1)

        def down(v, at, c):
            if at.size == 0:
                return
            if v < 0:
                src[at] = ~v
                draw[at] = c
                return
            node = self.nodes[v]
            lo = self._share(node, c)
            left = self._share(node, c + one) > lo
            down(node[3], at[left], lo[left])
            down(node[4], at[~left], (c - lo)[~left])

        down(self.root, np.arange(t.size), t)
        return src, draw

    def samples(self, src, draw):
        """The sample of each (source, draw of this epoch)."""
        out = np.empty(len(src), dtype=np.uint64)
        for s in range(self.k):
            sel = np.flatnonzero(src == s)
            if sel.size == 0:
                continue
            kk = np.uint64(self.base[s]) + draw[sel]
            n = np.uint64(self.n[s])
            ep, pos = kk // n + np.uint64(1), kk % n
            for e in np.unique(ep):
                at = ep == e
                out[sel[at]] = _Perm(self.n[s], (self.seed + s) & _M64,
                                     int(e)).at(pos[at])
        return out

    def slice_positions(self, rank, world, u):
        """The epoch positions of positions u of rank's slice."""
        u = np.asarray(u, dtype=np.uint64)
        if world == 1 or self.k == 1:
            return np.uint64(world) * u + np.uint64(rank)
        key = _mix(_mix((self.seed + _GOLDEN) & _M64) ^ self.epoch)
        z = u ^ np.uint64(key)
        with np.errstate(over="ignore"):
            _mix_inplace(z, np.empty_like(z))
        W = np.uint64(world)
        return W * u + (np.uint64(rank) + z % W) % W

    def draws(self, rank, world, first, count):
        """(sources, samples) of slice positions first .. first+count-1."""
        t = self.slice_positions(rank, world, np.arange(first, first + count,
                                                        dtype=np.uint64))
        with np.errstate(over="ignore"):
            src, d = self.locate(t)
            return src, self.samples(src, d)


def mix_order(counts, weights, seed=0, epoch=1, length=None, rank=0,
              world=1, start=0, count=None):
    """The (source, sample) pairs of pskd-mix's order as an (n, 2) int64
    array: the sources' sample counts and weights, -s seed, -e epoch, -L
    length, --rank, --world, --start, -n count (default: the whole
    slice)."""
    mx = Mix(counts, weights, seed, epoch, length)
    m = mx.length // world
    if count is None:
        count = m - start
    src, smp = mx.draws(rank, world, start, count)
    return np.stack([src, smp.astype(np.int64)], axis=-1)


class PskdMix:
    """The samples of several .psk.d files of one type, mixed by weight:
    PskdMix([("web.psk.d", 0.7), ("code.psk.d", 0.3)]).  Each source is a
    path or a PskdDataset.  Indexed by (source, sample) pairs -- an array
    of shape (..., 2), a batch read into one buffer per source -- it gives
    what the sources' PskdDataset gives; loader() over it yields the
    batches of pskd-mix -B in its order."""

    def __init__(self, sources, length=None):
        self.sources, self.weights = [], []
        for src, w in sources:
            ds = src if isinstance(src, PskdDataset) else PskdDataset(src)
            if ds.kind == "tokens":
                raise PskdError(9005, "a source cut on the fly (seq=) "
                                "cannot be mixed: give its windows")
            self.sources.append(ds)
            self.weights.append(w)
        if not self.sources:
            raise ValueError("no sources")
        first = self.sources[0]
        for ds in self.sources[1:]:
            if [(l.real, l.bound, l.dims, l.enc) for l in ds.header.leaves] \
                    != [(l.real, l.bound, l.dims, l.enc)
                        for l in first.header.leaves]:
                raise PskdError(9005, "%s: type %s, not %s as %s" % (
                    ds.path, ds.header.type, first.header.type, first.path))
        self.counts = [len(ds) for ds in self.sources]
        self.length = length

    def __len__(self):
        return sum(self.counts) if self.length is None else self.length

    def __getitem__(self, key):
        key = np.asarray(key, dtype=np.int64)
        if key.ndim == 1:
            return self.sources[int(key[0])][int(key[1])]
        flat = key.reshape(-1, 2)
        first = self.sources[0]
        m = first._map if first._map is not None else first._open()
        ss = first.header.sample_size
        # The whole batch into one buffer, a pread(2) a sample from its
        # file, in the batch's order.
        buf = np.empty((len(flat), ss), dtype=np.uint8)
        for r, (s, i) in enumerate(flat.tolist()):
            ds = self.sources[s]
            if not 0 <= i < ds._len:
                raise IndexError("%s: sample %d of %d" % (ds.path, i,
                                                          ds._len))
            if ds._fd is None:
                ds._fd = os.open(ds.path, os.O_RDONLY)
            if os.preadv(ds._fd, [buf[r]], ds.header.size + i * ss) != ss:
                raise PskdError(9003, "%s: truncated while reading (the "
                                "file changed)" % ds.path)
        rows = buf.view(m.dtype).reshape((len(flat),) + m.shape[1:])
        try:
            out = first._finish(rows, flat[:, 1])
        except PskdError:
            for s in np.unique(flat[:, 0]).tolist():     # which file
                at = flat[:, 0] == s
                try:
                    first._finish(rows[at], flat[at, 1])
                except PskdError as e:
                    raise PskdError(e.code, "%s: %s" % (
                        self.sources[s].path, str(e)[7:])) from None
            raise
        shape = key.shape[:-1]
        if isinstance(out, tuple):
            return tuple(o.reshape(shape + o.shape[1:]) for o in out)
        return out.reshape(shape + out.shape[1:])


class PskdMixSampler(PskdSampler):
    """The (source, sample) pairs of pskd-mix's order over mix (a
    PskdMix), -s seed -e epoch --rank --world --start, one pair an item;
    set_epoch, state_dict and load_state_dict as PskdSampler's."""

    def __init__(self, mix, seed, epoch=1, rank=0, world=1, start=0):
        self.mix = mix
        super().__init__(len(mix), seed, epoch, rank, world, start)

    def _indices(self, first, count):
        mx = getattr(self, "_mx", None)
        if mx is None or (mx.seed, mx.epoch) != (self.seed, self.epoch):
            mx = self._mx = Mix(self.mix.counts, self.mix.weights,
                                self.seed, self.epoch, self.mix.length)
        src, smp = mx.draws(self.rank, self.world, first, count)
        return np.stack([src, smp.astype(np.int64)], axis=-1)

    def _items(self, idx):
        return [tuple(p) for p in idx.tolist()]


class PskdMixBatchSampler(PskdMixSampler):
    """The batches of pskd-mix -B batch_size: (batch_size, 2) arrays of
    (source, sample) pairs, the short last batch dropped."""

    def __init__(self, mix, batch_size, seed, epoch=1, rank=0, world=1,
                 start=0):
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.step = batch_size
        super().__init__(mix, seed, epoch, rank, world, start)

    def _items(self, idx):
        return idx.reshape(-1, self.step, 2)


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
