# dedup-ref.py - an independent Python/numpy implementation of what
# pskd-shingle (ASCII text only), pskd-minhash (both families) and the frame
# stream specify, written from the man pages; imported by tests/t/dedup-*
# and by tests/bench/dedup.sh (as the reference the bench compares with).
# cminhash() is a third family, measured by the bench and not offered by
# pskd-minhash (see its man page).
import os
import struct
import sys

import numpy as np
import xxhash
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from pskdtest import read_frames  # noqa: F401 (the scripts use ref.read_frames)

M64 = (1 << 64) - 1


def normalize_ascii(text):
    """All steps on, for ASCII text: case, punct, digits, space."""
    out = []
    for c in text:
        o = ord(c)
        if c.isascii() and c.isalpha():
            out.append(c.lower())
        elif "0" <= c <= "9":
            out.append("0")
        else:
            out.append(" ")
    return " ".join("".join(out).split())


def shingles(text, w=5, seed=0):
    words = normalize_ascii(text).split(" ")
    if words == [""]:
        return np.zeros(0, dtype=np.uint64)
    n = max(1, len(words) - w + 1)
    hs = {xxhash.xxh3_64_intdigest(" ".join(words[i:i + w]).encode(),
                                   seed=seed) for i in range(n)}
    return np.array(sorted(hs), dtype=np.uint64)


def splitmix64(state):
    state = (state + 0x9e3779b97f4a7c15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return state, z ^ (z >> 31)


def seeds(k, seed):
    s, out = seed, []
    for _ in range(k):
        s, z = splitmix64(s)
        out.append(z & 0xffffffff)
    return np.array(out, dtype=np.uint32)


def fmix32(h):
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85ebca6b)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xc2b2ae35)
    return h ^ (h >> np.uint32(16))


def fmix64(h):
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & M64
    h ^= h >> 33
    h = (h * 0xc4ceb9fe1a85ec53) & M64
    return h ^ (h >> 33)


def classic(x, s):
    """x: uint64 shingle hashes; s: uint32 seeds.  k components."""
    x32 = ((x & np.uint64(0xffffffff)) ^ (x >> np.uint64(32))).astype(
        np.uint32)
    with np.errstate(over="ignore"):
        return fmix32(x32[None, :] ^ s[:, None]).min(axis=1)


def oph(x, k, seed):
    s, key = splitmix64(seed)
    s, key2 = splitmix64(s)
    sig = [0xffffffff] * k
    filled = [False] * k
    for v in x.tolist():
        h = fmix64(v ^ key)
        b = ((h >> 32) * k) >> 32
        filled[b] = True
        sig[b] = min(sig[b], h & 0xffffffff)
    out = list(sig)
    for i in range(k):
        if filled[i]:
            continue
        a = 1
        while True:
            j = ((fmix64(key2 ^ ((i << 32) | a)) >> 32) * k) >> 32
            if filled[j]:
                break
            a += 1
        out[i] = sig[j]
    return np.array(out, dtype=np.uint32)


def cminhash(x, k, seed):
    """C-MinHash (Li and Li 2021) with hashes for its two permutations:
    sigma(x) = low32(fmix64(x ^ key)), key = the first splitmix64(seed)
    (OPH's key), breaks up the shingle values; then one permutation,
    fmix32, shifted circulantly: component_j = min over the set of
    fmix32((sigma(x) + j) mod 2^32), j = 0 .. k-1."""
    s, key = splitmix64(seed)
    with np.errstate(over="ignore"):
        h = x ^ np.uint64(key)
        h = h ^ (h >> np.uint64(33))
        h = h * np.uint64(0xff51afd7ed558ccd)
        h = h ^ (h >> np.uint64(33))
        h = h * np.uint64(0xc4ceb9fe1a85ec53)
        h = h ^ (h >> np.uint64(33))
        y = (h & np.uint64(0xffffffff)).astype(np.uint32)
        j = np.arange(k, dtype=np.uint32)
        return fmix32(y[None, :] + j[:, None]).min(axis=1)




def write_frames(frames, k, version=1, unit=0, n=5, norm=31, shingle_seed=0,
                 family=1, minhash_seed=1, rejected=()):
    """A signature stream (pskd-frames(5)) of (id, line, values) frames,
    values a list of k components or empty; the header as given; the
    frames numbered in rejected (from 0) flagged so (version 2)."""
    out = bytearray(b"PSKF")
    out += struct.pack("<HHIIIIQQII", version, 2, unit, n, norm, k,
                       shingle_seed, minhash_seed, family, 0)
    for i, (fid, line, vals) in enumerate(frames):
        assert len(vals) in (0, k)
        flag = 0x80000000 if i in rejected else 0
        out += struct.pack("<III", len(fid) | flag, len(line), len(vals))
        out += fid + line + struct.pack("<%dI" % len(vals), *vals)
    return bytes(out)
