# exact-ref.py - an independent plain-Python reading of pskd-exact(1) and
# pskd-decon(1) (the standard library only: a unit's identity is its
# normalised text itself, or its SHA-1 digest, never pskd's XXH3), imported
# by tests/t/exact-reference and tests/bench/exact.sh.  It reads the rules
# of UNITS, VERDICTS and NORMALISATION in the man pages, not the C code.
import hashlib
import unicodedata

WS = " \t\n\v\f\r"          # ASCII white space: what separates and blanks
STEPS = ("case", "punct", "digits", "space", "marks")


def steps_of(s):
    """-n's comma list; 'all', 'none'; 'raw' is None."""
    if s == "raw":
        return None
    out = set()
    for w in s.split(","):
        if w == "all":
            out |= set(STEPS)
        elif w != "none":
            out.add(w)
    return out


def norm_char(c, steps):
    o = ord(c)
    if o < 0x80:
        if o < 0x20 or o == 0x7f or c == " ":
            return " "
        if "case" in steps and "A" <= c <= "Z":
            return c.lower()
        if "digits" in steps and "0" <= c <= "9":
            return "0"
        if "punct" in steps and not c.isalnum():
            return " "
        return c
    s = c
    if "case" in steps:
        s = s.casefold()
    if "marks" in steps:
        s = unicodedata.normalize("NFKD", s)
        if "case" in steps:
            s = unicodedata.normalize("NFKD", s.casefold())
        s = "".join(d for d in s
                    if unicodedata.category(d) not in ("Mn", "Mc", "Me"))
    out = []
    for d in s:
        cat = unicodedata.category(d)
        if cat in ("Zs", "Zl", "Zp", "Cc"):
            out.append(" ")
        elif cat[0] in "PS" and "punct" in steps:
            out.append(" ")
        elif cat == "Nd" and "digits" in steps:
            out.append("0")
        else:
            out.append(d)
    return "".join(out)


def normalize(s, steps, words=False):
    t = "".join(norm_char(c, steps) for c in s)
    if "space" in steps or words:
        t = " ".join(x for x in t.split(" ") if x)
    return t


def blank(s):
    return all(c in WS for c in s)


def content(s, steps):
    """A unit's content: None when blank or nothing after normalisation."""
    if blank(s):
        return None
    t = s if steps is None else normalize(s, steps)
    return t if t else None


def nwords(s, steps):
    if steps is None:
        return len("".join(" " if c in WS else c for c in s).split())
    t = normalize(s, steps, words=True)
    return len(t.split(" ")) if t else 0


def blen(s):
    return len(s.encode())


# ---- the units of a member: (content, start, end) in characters ----------

def lines(s):
    out, i = [], 0
    while i < len(s):
        j = s.find("\n", i)
        c, e = (j, j + 1) if j >= 0 else (len(s), len(s))
        out.append((s[i:c], i, e))
        i = e
    return out


def paras(s):
    """Runs of non-blank lines, each with the blank lines after it."""
    out, run = [], []
    ls = lines(s)
    groups = []
    for text, a, e in ls:
        if blank(text):
            if run:
                groups.append(run)
                run = []
        else:
            run.append((text, a, e))
    if run:
        groups.append(run)
    for g, run in enumerate(groups):
        a = run[0][1]
        cend = run[-1][1] + len(run[-1][0])
        end = groups[g + 1][0][1] if g + 1 < len(groups) else len(s)
        out.append((s[a:cend], a, end))
    return out


def end_mark(s, j):
    """The index after a sentence's end mark at s[j], or 0."""
    if s[j] in ".!?":
        e = j
        while e < len(s) and s[e] in ".!?":
            e += 1
        return e if e == len(s) or s[e] in WS else 0
    if s[j] in "\u3002\uff01\uff1f":
        return j + 1
    return 0


def sentences(s):
    out, i, n = [], 0, len(s)
    while i < n and s[i] in WS:
        i += 1
    while i < n:
        start, cend = i, n
        for j in range(i, n):
            if s[j] == "\n":
                cend = j
                break
            m = end_mark(s, j)
            if m:
                cend = m
                break
        ce = cend
        while ce > start and s[ce - 1] in WS:
            ce -= 1
        e = cend
        while e < n and s[e] in WS:
            e += 1
        out.append((s[start:ce], start, e))
        i = e
    return out


class Exact:
    """The units seen, in one run over inputs in order (pskd-exact)."""

    def __init__(self, grain="line", steps="all", min_words=None):
        self.grain, self.span = grain, 3
        if grain.startswith("span"):
            self.grain = "span"
            self.span = int(grain[5:]) if ":" in grain else 3
        self.steps = steps_of(steps)
        self.min = min_words if min_words is not None else (
            50 if self.grain == "span" else 1)
        self.seen = {}           # key -> (input, line)

    def key(self, t):
        return hashlib.sha1(t.encode()).digest()

    def check(self, t, where):
        """Whether the unit t was seen; if not, it is now (first kept)."""
        k = self.key(t)
        if k in self.seen:
            return self.seen[k]
        self.seen[k] = where
        return None

    def doc(self, members, joined, where):
        """members: the distinct string members in -f order, joined their
        text; returns (verdict, what, against, new members or None)."""
        if self.grain == "doc":
            c = content(joined, self.steps)
            if c is None:
                return ("empty", None, None, None)
            first = self.check(c, where)
            if first is None:
                return ("keep", None, None, None)
            return ("exact_duplicate", str(first[0]), str(first[1]), None)
        units = []               # (member, content, start, end)
        sents = []               # span: (member, start, end) of each
        for k, s in enumerate(members):
            if self.grain == "line":
                us = lines(s)
            elif self.grain == "para":
                us = paras(s)
            else:
                ss = []
                for text, a, e in sentences(s):
                    c = content(text, self.steps)
                    if c is not None:
                        ss.append((c, a, e))
                base = len(sents)
                sents += [(k, a, e) for _, a, e in ss]
                w = min(self.span, len(ss))
                for i in range(len(ss) - w + 1 if ss else 0):
                    units.append((k, "\n".join(x[0] for x in ss[i:i + w]),
                                  base + i, w))
                continue
            for text, a, e in us:
                c = content(text, self.steps)
                if c is not None:
                    units.append((k, c, a, e))
        if not units:
            return ("empty", None, None, None)
        rep = [self.check(u[1], where) is not None for u in units]
        if not any(rep):
            return ("keep", None, None, None)
        cuts = [[] for _ in members]
        if self.grain == "span":
            cut = set()
            for u, r in zip(units, rep):
                if r:
                    cut.update(range(u[2], u[2] + u[3]))
            for i in sorted(cut):
                k, a, e = sents[i]
                cuts[k].append((a, e))
        else:
            for u, r in zip(units, rep):
                if r:
                    cuts[u[0]].append((u[2], u[3]))
        new, nbytes, removed, words = [], 0, 0, 0
        for k, s in enumerate(members):
            if not cuts[k]:
                new.append(None)
                words += nwords(s, self.steps)
                continue
            out, at = [], 0
            for a, e in cuts[k]:
                out.append(s[at:a])
                nbytes += blen(s[a:e])
                removed += 1
                at = e
            out.append(s[at:])
            t = "".join(out)
            new.append(t)
            words += nwords(t, self.steps)
        if words < self.min:
            return ("exact_too_short", str(words), str(self.min), None)
        return ("trimmed", str(nbytes), str(removed), new)


def quote(s):
    """A JSON string as pskd writes one: only '"', '\\' and controls."""
    out = ['"']
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20:
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def verdict_line(id_, v, what, against):
    f = [id_, v] + ([what, against] if what is not None else [])
    return "\t".join(f) + "\n"


# ---- pskd-decon ---------------------------------------------------------

class Decon:
    def __init__(self, n=13, steps="all"):
        self.n, self.steps = n, steps_of(steps)
        self.items = []          # [bench, id, grams(set), docs]
        self.where = {}          # gram -> the items that have it, in order

    def grams(self, text):
        t = normalize(text, self.steps, words=True)
        w = t.split(" ") if t else []
        return [" ".join(w[i:i + self.n]) for i in range(len(w) - self.n + 1)]

    def add(self, bench, id_, text):
        gs = set(self.grams(text))
        for g in gs:
            self.where.setdefault(g, []).append(len(self.items))
        self.items.append([bench, id_, len(gs), 0, gs])

    def doc(self, text):
        """None, or (the first n-gram that matches, its first item)."""
        first, found = None, set()
        for g in self.grams(text):
            if g in self.where:
                if first is None:
                    first = (g, self.where[g][0])
                found.update(self.where[g])
        for i in found:
            self.items[i][3] += 1
        return first

    def summary(self):
        return "".join("%s\t%s\t%d\t%d\n" % (b, i, n, d)
                       for b, i, n, d, _ in self.items)
