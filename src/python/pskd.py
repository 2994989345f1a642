"""pskd - read and write .psk.d files from Python, in pskd-shuffle's order.

One module (with _pskd_type, _pskd_order and _pskd_write beside it, which
it imports), the standard library and numpy (torch is used when it is
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

# The type, the orders and the writer live in modules of their own (the
# tests read _mix and _mix_inplace as pskd._mix).
from _pskd_type import (MAGIC, COUNT_STREAM, PskdError, Leaf, _TYPE_MAX,
                        _M64, _parse_type, _layout)
from _pskd_order import (_Perm, _mix, _mix_inplace, _positions, permutation,
                         Mix, mix_order)
from _pskd_write import write

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
