"""_pskd_type - the .psk.d sample type of pskd.py: its parser, its leaves
and their layout, and PskdError (psk.d(5), "THE TYPE").  Part of pskd;
import pskd, not this."""

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
