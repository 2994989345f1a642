"""_pskd_order - the orders of pskd.py: pskd-shuffle's permutation
(pskd-shuffle(1), "THE PERMUTATION") and pskd-mix's order (pskd-mix(1),
"THE ORDER"), computed position by position with numpy.  Part of pskd;
import pskd, not this."""

import numpy as np

from _pskd_type import _M64

# ---- the permutation (pskd-shuffle(1), "THE PERMUTATION") -------------

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
