# Compatibility forms, marks, Arabic ligature, no-break space, dashes: the
# hashes equal those of Python's unicodedata (NFKD, casefold, categories)
# on the same text: words 0 صلى الله عليه وسلم x y dz z xii.
printf '{"text":"⑴ ﷺ x\\u00a0y ǆ —z Ⅻ"}\n' | pskd-shingle -w 2 | "$TESTDIR/dump.py" | tail -n +3
/usr/bin/python3 -c '
import unicodedata, xxhash
out = []
for c in unicodedata.normalize("NFKD", "⑴ ﷺ x\u00a0y ǆ —z Ⅻ"):
    c = c.casefold()
    cat = unicodedata.category(c)
    if cat in ("Mn", "Mc", "Me"):
        continue
    out.append(" " if cat[0] in "PSZ" or cat == "Cc" else "0" if cat == "Nd" else c)
w = "".join(out).split()
for h in sorted({xxhash.xxh3_64_intdigest(" ".join(w[i:i + 2]).encode()) for i in range(len(w) - 1)}):
    print("  %016x" % h)'
