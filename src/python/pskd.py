"""pskd - read .psk.d files from Python, in pskd-shuffle's order.

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

Errors are PskdError, whose message starts with the container's code
(E9001 ... E9005) like the C programs' messages.
"""

import os
import re
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
           "permutation", "PskdSampler", "PskdBatchSampler", "loader"]

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


_TOKEN = re.compile(r"\s*(ℝ|idx(?![A-Za-z0-9_])|[A-Za-z_][A-Za-z0-9_]*|"
                    r"[0-9]+|[\[\](),:])")


def _parse_type(text):
    """Leaves of a type in storage order; None for a params type."""
    toks, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise PskdError(9001, "type: column %d: unexpected text"
                            % (pos + 1))
        toks.append(m.group(1))
        pos = m.end()
    if toks[:1] == ["params"]:
        return None
    leaves, i = [], 0

    def take(want=None):
        nonlocal i
        if i >= len(toks) or (want is not None and toks[i] != want):
            raise PskdError(9001, "type: expected %r in %r" % (want, text))
        i += 1
        return toks[i - 1]

    def number(tok):
        if not tok.isdigit():
            raise PskdError(9001, "type not closed: %s is not a literal"
                            % tok)
        return int(tok)

    def typ():
        if i < len(toks) and toks[i] == "(":
            take("(")
            typ()
            while i < len(toks) and toks[i] == ",":
                take(",")
                typ()
            take(")")
            return
        tok = take()
        if tok == "ℝ":
            real, bound = True, 0
        elif tok == "idx":
            take("[")
            real, bound = False, number(take())
            take("]")
        else:
            raise PskdError(9001, "not a data type: %r" % text)
        dims, names = [], []
        while i < len(toks) and toks[i] == "[":
            take("[")
            tok = take()
            name = None
            if not tok.isdigit():
                name = tok
                take(":")
                tok = take()
            dims.append(number(tok))
            names.append(name)
            take("]")
        leaves.append(Leaf(real, bound, dims, names))

    typ()
    if i != len(toks):
        raise PskdError(9001, "type: trailing text in %r" % text)
    return leaves


# ---- the header ---------------------------------------------------------

class Header:
    """version, type (text), count (None while streaming), leaves (None
    for a params type), sample_size, size (bytes of the header)."""

    def __repr__(self):
        return "Header(version=%d, type=%r, count=%r, sample_size=%r)" % (
            self.version, self.type, self.count, self.sample_size)


def _header(buf):
    if len(buf) == 0:
        raise PskdError(9002, "not a .psk.d file (empty input)")
    if buf[:4] != MAGIC[:min(4, len(buf))]:
        raise PskdError(9002, "not a .psk.d file (no PSKD magic)")
    if len(buf) < 10:
        raise PskdError(9003, "truncated header (%d bytes)" % len(buf))
    version, tlen = struct.unpack_from("<HI", buf, 4)
    if version not in (1, 2):
        raise PskdError(9002, "unsupported .psk.d version %d" % version)
    if len(buf) - 10 < tlen + 8:
        raise PskdError(9003, "truncated header (type of %d bytes, %d "
                        "bytes in all)" % (tlen, len(buf)))
    try:
        text = bytes(buf[10:10 + tlen]).decode("utf-8")
    except UnicodeDecodeError:
        raise PskdError(9001, "type: invalid UTF-8") from None
    h = Header()
    h.version, h.type = version, text
    (count,) = struct.unpack_from("<Q", buf, 10 + tlen)
    h.count = None if count == COUNT_STREAM else count
    off = 18 + tlen
    h.leaves = _parse_type(text)
    if version == 2:
        if len(buf) - off < 4:
            raise PskdError(9003, "truncated header (leaf encodings)")
        (nl,) = struct.unpack_from("<I", buf, off)
        off += 4
        if len(buf) - off < nl:
            raise PskdError(9003, "truncated header (%d leaf encodings)"
                            % nl)
        codes = bytes(buf[off:off + nl])
        off += nl
        if h.leaves is not None:
            if nl != len(h.leaves):
                raise PskdError(9005, "%d leaf encodings for %d leaves"
                                % (nl, len(h.leaves)))
            for leaf, c in zip(h.leaves, codes):
                if c not in _ENC_WIDTH or (c != 0 and not leaf.real):
                    raise PskdError(9001, "bad leaf encoding %d" % c)
                leaf.enc, leaf.width = c, _ENC_WIDTH[c] if leaf.real \
                    else leaf.width
    h.size = off
    h.sample_size = None
    if h.leaves is not None:
        o = 0
        for leaf in h.leaves:
            leaf.offset = o
            o += leaf.size
        h.sample_size = o
    return h


def read_header(path):
    """The header of the .psk.d file at path (a Header)."""
    with open(path, "rb") as f:
        buf = f.read(10)
        if len(buf) >= 10 and buf[:4] == MAGIC:
            (tlen,) = struct.unpack_from("<I", buf, 6)
            buf += f.read(min(tlen, 1 << 20) + 12)
            if len(buf) >= 22 + tlen and buf[4] == 2:
                (nl,) = struct.unpack_from("<I", buf, 18 + tlen)
                buf += f.read(min(nl, 1 << 20))
    return _header(buf)


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
        m = self._map if self._map is not None else self._open()
        batch = not np.isscalar(i)
        if batch:
            i = np.asarray(i, dtype=np.int64)
        elif not 0 <= i < self._len:
            if -self._len <= i < 0:
                i += self._len
            else:
                raise IndexError("sample %d of %d" % (i, self._len))
        T = self.seq if self.kind != "leaves" else 0
        if self.kind == "tokens":
            start = np.asarray(i, dtype=np.int64) * self.stride
            rows = m[start[..., None] + np.arange(T + 1)]
        elif batch and m.size:
            rows = self._rows(i)
        else:
            rows = m[i]
        if self.kind == "pair":
            return _long(rows[..., :T]), _long(rows[..., T:])
        if self.kind in ("single", "tokens"):
            return _long(rows[..., :T]), _long(rows[..., 1:])
        out = tuple(_decode(leaf, np.array(rows["l%d" % k]))
                    for k, leaf in enumerate(self.header.leaves))
        return out[0] if len(out) == 1 else out


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
        if epoch < 1:
            raise ValueError("epochs count from 1")
        self.epoch, self.start = epoch, 0

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
