#!/usr/bin/python3
# pipeline-gen.py - the input of tests/bench/pipeline.sh: four zstd shards
# (zstd -3) of JSON Lines, >= 200 MB uncompressed in all, of English text
# grown deterministically from the bundled corpus (examples/corpus, the
# State of the Union addresses, about 6 MB).
#
#   pipeline-gen.py CORPUS_DIR OUT_DIR [TOTAL_BYTES]
#
# The sentences of the corpus are the material.  Every document is new:
# a run of sentences cut from a random place in a random address, every
# other sentence or so swapped for one from anywhere in the corpus (a seeded
# RNG), some sentences spliced from two at a random word, so that two
# generated documents share few 5-word shingles and are NOT near-duplicates
# of each other; otherwise dedup would drop almost everything and the later
# stages would measure nothing.  About 3 % of documents are planted
# near-duplicates: a copy of a document from the last few thousand (also
# across shard boundaries) with none to a few words changed (estimated
# Jaccard well above 0.8).  Every document has a unique id.  Same arguments,
# same bytes.  Writes OUT_DIR/shard-N.jsonl.zst and OUT_DIR/gen.txt (what
# was planted) through temporary names, gen.txt last.
import json, os, random, re, subprocess, sys

corpus, out = sys.argv[1], sys.argv[2]
total = int(sys.argv[3]) if len(sys.argv) > 3 else 212_000_000
SHARDS, DUP_RATE = 4, 0.03
r = random.Random(20261129)

docs = []
for name in sorted(os.listdir(corpus)):
    if name.endswith(".jsonl.zst"):
        raw = subprocess.run(["zstd", "-dcq", os.path.join(corpus, name)],
                             check=True, stdout=subprocess.PIPE).stdout
        for line in raw.decode("utf-8").splitlines():
            d = json.loads(line)
            s = [x for x in re.split(r"(?<=[.!?])\s+", d["text"]) if x]
            if s:
                docs.append((d.get("id", ""), d.get("year"), d.get("president"), s))
if not docs:
    sys.exit("pipeline-gen.py: no documents in " + corpus)
# Addresses: the paragraphs of one speech back to back, so a cut can start
# anywhere in it and run across paragraphs.
speeches = {}
for ident, year, pres, s in docs:
    key = ident.rsplit("-", 1)[0] if "-" in ident else ident
    speeches.setdefault(key, (year, pres, []))[2].extend(s)
speeches = [(k,) + v for k, v in sorted(speeches.items())]
pool = [x for sp in speeches for x in sp[3]]

def new_text():
    key, year, pres, sent = r.choice(speeches)
    n = min(len(sent), max(3, int(r.lognormvariate(2.6, 0.6))))
    i = r.randrange(len(sent) - n + 1)
    body = []
    for x in sent[i:i + n]:
        u = r.random()
        if u < 0.55:
            x = r.choice(pool)
        if u < 0.25 or 0.55 <= u < 0.7:
            a, b = x.split(" "), r.choice(pool).split(" ")
            x = " ".join(a[:r.randint(1, len(a))] + b[r.randrange(len(b)):])
        body.append(x)
    return key, year, pres, " ".join(body)

def near_dup(text):
    w = text.split(" ")
    for _ in range(r.randint(0, max(0, len(w) // 150))):
        w[r.randrange(len(w))] = r.choice(r.choice(pool).split(" "))
    return " ".join(w)

recent, planted, ndocs = [], 0, 0
os.makedirs(out, exist_ok=True)
per = (total + SHARDS - 1) // SHARDS
for sh in range(SHARDS):
    path = os.path.join(out, "shard-%d.jsonl.zst" % sh)
    z = subprocess.Popen(["zstd", "-3", "-q", "-f", "-o", path + ".tmp"],
                         stdin=subprocess.PIPE)
    size, n, buf = 0, 0, []
    while size < per:
        if recent and r.random() < DUP_RATE:
            src = r.choice(recent)
            key, year, pres, text = src[0], src[1], src[2], near_dup(src[3])
            planted += 1
        else:
            key, year, pres, text = new_text()
            recent.append((key, year, pres, text))
            if len(recent) > 4000:
                recent.pop(r.randrange(len(recent)))
        line = json.dumps({"id": "gen-%d-%06d" % (sh, n), "source": key,
                           "year": year, "president": pres,
                           "text": text}) + "\n"
        buf.append(line)
        size += len(line.encode("utf-8"))
        n += 1
        if len(buf) >= 2000:
            z.stdin.write("".join(buf).encode("utf-8"))
            buf = []
    z.stdin.write("".join(buf).encode("utf-8"))
    z.stdin.close()
    if z.wait() != 0:
        sys.exit("pipeline-gen.py: zstd failed")
    os.replace(path + ".tmp", path)
    ndocs += n
with open(os.path.join(out, "gen.txt.tmp"), "w") as f:
    f.write("documents %d planted %d\n" % (ndocs, planted))
os.replace(os.path.join(out, "gen.txt.tmp"), os.path.join(out, "gen.txt"))
