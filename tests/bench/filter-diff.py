#!/usr/bin/python3
"""filter-diff.py OLD NEW [MB] - two builds of pskd-filter, document by
document, on a generated corpus of about MB megabytes (default 40): the
verdict lines (id, rule, value, threshold) and the kept documents of each
configuration must be the same bytes.  For a change that must not change
what pskd-filter decides (a faster n-gram pass, a fast path): keep a copy
of the binary before it, build, and run

    tests/bench/filter-diff.py /tmp/pskd-filter.old bin/pskd-filter

The corpus (seeded, the same every run, in $PSKD_BENCH_DIR/filter-diff):
the reference documents and pieces of them shuffled, cut and repeated;
texts over a few words that repeat (n-grams joined by nothing that are
equal with their words cut elsewhere, Thue-Morse sequences); other scripts,
Unicode white space, line breaks and punctuation; sentence ends, quotes and
abbreviations; the phrases C4 looks for, in any case, with the Kelvin sign
and the dotted capital I; lines of 1 MB and more.  Prints one line a
configuration and exits 1 if any differs."""
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../data/filter"))
import corpus  # noqa: E402

LINES_OFF = "".join("-s repetition.%s=off " % k for k in (
    "dup_line_frac", "dup_para_frac", "dup_line_char_frac",
    "dup_para_char_frac"))
CONFIGS = [
    "-r gopher-repetition,gopher-quality,c4,fineweb "
    "-s c4.filter_no_terminal_punct=0",
    "-r gopher-repetition,gopher-quality,c4,fineweb",
    "-r gopher-repetition",
    "-r gopher-quality",
    "-r c4",
    "-r c4 -s c4.split_paragraph=0",
    "-r fineweb",
    # every n-gram width, on every document, thresholds that some meet
    "-r gopher-repetition " + LINES_OFF + " ".join(
        "-s repetition.top_%d_gram=%g -s repetition.duplicated_%d_n_grams=off"
        % (n, 0.15 + 0.02 * n, n) for n in range(1, 17)),
    "-r gopher-repetition " + LINES_OFF + " ".join(
        "-s repetition.top_%d_gram=off -s repetition.duplicated_%d_n_grams=%g"
        % (n, n, 0.75 - 0.04 * n) for n in range(1, 17)),
    "-r gopher-repetition -s repetition.top_2_gram=off "
    "-s repetition.top_3_gram=off -s repetition.top_4_gram=0.01 "
    "-s repetition.duplicated_5_n_grams=off "
    "-s repetition.duplicated_7_n_grams=0.01",
]

SCRIPTS = [
    "Сегодня хорошая погода, мы пошли гулять.",
    "我们今天去公园散步。天气很好，阳光明媚！",
    "今日は天気がいいので、公園に行きました。",
    "오늘은 날씨가 좋아서 공원에 갔습니다.",
    "ذهبنا إلى السوق في الصباح؟ كان الجو جميلا.",
    "आज मौसम बहुत अच्छा है। हम पार्क में घूमने गए॥",
    "วันนี้อากาศดีมาก เราไปเดินเล่นที่สวนสาธารณะ",
    "Σήμερα ο καιρός είναι ωραίος; Πήγαμε στο πάρκο.",
    "היום מזג האוויר יפה. הלכנו לפארק.",
    "I love it 😀👍🏽 so much! 👨‍👩‍👧 family 🇫🇷.",
    "Cafe\u0301 de\u0301ja\u0300 vu, n\u0303 \u0301lone.",
    "word\u200bword\u00a0nbsp\u2007fig\u3000ideo\u202fnarrow",
    "ማርያም ትናንት መጣች። ነገ ትሄዳለች፡፡",
    "Ինչպես ես։ Լավ եմ։",
    "ꓐꓳ ꓢꓲ꓿ ꘎ ꘏ ꛳ ꛷",
]
ODD = ["\u2028", "\u2029", "\x85", "\x1c", "\x1d", "\x1e", "\v", "\f", "\r",
       "\r\n", "\t", "\u00a0", "\u2000", "\u200a", "\u3000", "\u205f",
       "\u1680", "…", "...", "•", "-", "#", "{", "}", "[1]", "[edit]",
       "[citation needed]", "[\u0663]", "[", "]", "\u212a", "\u0130",
       "\x00", "\x7f", "\u0301", "\u200d", "\U0001d11e", "。", "！", "？",
       "؟", "।", "\u2026", "\u203c", "\uff0e", "\ufe52", "\u2024"]
PHRASES = ["lorem ipsum", "javascript", "terms of use", "privacy policy",
           "cookie policy", "uses cookies", "use of cookies", "use cookies",
           "cookie", "policy", "lorem", "ipsum", "java script"]
SENT = ["Mr. Smith went to Washington.", "It cost $3.50 today.",
        "He said \"Stop!\" and left.", "Really?! Yes.", "See e.g. the U.S.A. now.",
        "(Who knows.) Then more.", "'Quoted.' lower case follows.",
        "The end...", "etc. and so on", "A.B.C. are letters.", "x.y z",
        "Wait . . . what?", "No!\" she said.", "1. First. 2. Second.",
        "Numbers 3.14 and 2.71.", "He left.\u2019 Then", "Ok.) (no",
        "[1] Cite. [2]", "a; b: c, d - e", "Stop.  Two spaces.",
        "End.\u00a0Nbsp.", "Tab.\tafter", "Q? a", "WHY? BECAUSE."]


def cut(s, r):
    """A prefix of s at a code point."""
    return s[:r.randint(0, len(s))]


def vocab_text(r, vocab, n):
    words = [r.choice(vocab) for _ in range(r.randint(1, 12))]
    out = []
    while len(out) < n:
        if r.random() < 0.3 and out:		# repeat a stretch
            k = r.randint(1, min(len(out), 15))
            s = r.randint(0, len(out) - k)
            out.extend(out[s:s + k])
        else:
            out.append(r.choice(words if r.random() < 0.7 else vocab))
    return out[:n]


def thue_morse(n, a, b):
    return [a if bin(i).count("1") % 2 == 0 else b for i in range(n)]


def join_words(r, words):
    out = []
    for w in words:
        out.append(w)
        x = r.random()
        out.append(" " if x < 0.8 else "\n" if x < 0.93 else "\n\n"
                   if x < 0.97 else r.choice(ODD[:16]))
    return "".join(out)


def generate(r, docs, paras, sents, size):
    out, total = [], 0

    def add(kind, text):
        nonlocal total
        out.append({"id": "%s-%d" % (kind, len(out)), "text": text})
        total += len(text.encode())

    texts = [d["text"] for d in docs]
    while total < size:
        x = r.random()
        if x < 0.15:
            add("ref", r.choice(texts))
        elif x < 0.30:			# lines of reference documents mixed
            lines = [l for t in r.sample(texts, 3) for l in t.split("\n")]
            r.shuffle(lines)
            k = r.randint(1, len(lines))
            lines = lines[:k]
            for _ in range(r.randint(0, 4)):
                if lines:
                    lines.insert(r.randint(0, len(lines)),
                                 r.choice(lines))
            add("mix", r.choice(["\n", "\n\n", "\r\n"]).join(lines))
        elif x < 0.40:			# cut at any code point
            add("cut", cut(r.choice(texts), r))
        elif x < 0.55:			# words that repeat
            vocab = r.choice([
                ["a", "ab", "b", "ba", "abc", "c", "bc", "ca"],
                ["the", "cat", "sat", "on", "mat", "and", "of", "to"],
                [w for w in r.choice(sents).split()] or ["x"],
                ["ab", "a", "b"], ["x"], ["xx", "x", "xxx"],
                ["дом", "до", "м", "мдо"], ["中", "文", "中文"]])
            add("rep", join_words(r, vocab_text(r, vocab,
                                                r.choice([5, 30, 200, 2000]))))
        elif x < 0.58:			# Thue-Morse sequences
            a, b = r.choice([("a", "b"), ("ab", "ba"), ("a", "ab"),
                             ("the", "cat"), ("x", "xx")])
            tm = thue_morse(r.choice([64, 500, 4096]), a, b)
            sep = r.choice(["", " "])
            if sep == "":
                add("tm", "".join(tm))
            else:
                add("tm", join_words(r, tm))
        elif x < 0.68:			# other scripts and odd characters
            parts = []
            for _ in range(r.randint(1, 60)):
                y = r.random()
                parts.append(r.choice(SCRIPTS) if y < 0.4 else
                             r.choice(ODD) if y < 0.7 else
                             r.choice(sents) if y < 0.9 else
                             chr(r.choice([r.randint(0x20, 0x7e),
                                           r.randint(0xa0, 0x2fff),
                                           r.randint(0x3000, 0xd7ff),
                                           r.randint(0xe000, 0xfffd),
                                           r.randint(0x10000, 0x10ffff)])))
                parts.append(r.choice([" ", " ", "", "\n", "\n\n"]))
            add("uni", "".join(parts))
        elif x < 0.80:			# sentences, phrases, citations
            lines = []
            for _ in range(r.randint(1, 40)):
                bits = []
                for _ in range(r.randint(1, 8)):
                    y = r.random()
                    if y < 0.5:
                        bits.append(r.choice(SENT))
                    elif y < 0.7:
                        bits.append(r.choice(sents))
                    elif y < 0.85:
                        p = r.choice(PHRASES)
                        p = "".join(c.upper() if r.random() < 0.3 else c
                                    for c in p)
                        if r.random() < 0.1:
                            p = p.replace("k", "\u212a").replace("K", "\u212a")
                        if r.random() < 0.1:
                            p = p.replace("i", "\u0130")
                        bits.append(p)
                    else:
                        bits.append(r.choice(ODD))
                lines.append(r.choice([" ", "", "  "]).join(bits))
            add("sent", r.choice(["\n", "\n\n"]).join(lines))
        elif x < 0.97:			# paragraphs
            k = r.randint(0, len(paras) - 1)
            add("para", r.choice(["\n", "\n\n", " "]).join(
                paras[k:k + r.randint(1, 10)]))
        else:				# edge cases
            add("edge", r.choice(["", " ", "\n", "x", "\u3000\n\u2028",
                                  "a" * r.randint(1, 5000),
                                  ". " * r.randint(1, 3000),
                                  "#" * r.randint(1, 99),
                                  "\n" * r.randint(1, 99)]))
    # lines of 1 MB and more
    big = " ".join(r.choice(sents) for _ in range(9000))
    add("mb-sents", big)
    add("mb-rep", " ".join(vocab_text(r, ["a", "ab", "b", "abc", "c"],
                                      400000)))
    add("mb-uni", " ".join(r.choice(SCRIPTS) for _ in range(30000)))
    add("mb-word", "y" * 1100000)
    add("mb-lines", "\n".join(r.choice(sents) for _ in range(9000)))
    r.shuffle(out)
    return out


def run(prog, opts, path, d, tag):
    v = os.path.join(d, tag + ".verdicts")
    o = os.path.join(d, tag + ".out")
    with open(o, "wb") as f:
        rc = subprocess.run([prog, "-q"] + opts.split() + ["--verdicts", v,
                                                           path],
                            stdout=f).returncode
    return rc, v, o


def same(a, b):
    with open(a, "rb") as f, open(b, "rb") as g:
        while True:
            x, y = f.read(1 << 20), g.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True


def main():
    old, new = sys.argv[1], sys.argv[2]
    mb = float(sys.argv[3]) if len(sys.argv) > 3 else 40
    d = os.path.join(os.environ.get("PSKD_BENCH_DIR", "/tmp/pskd-bench"),
                     "filter-diff")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "corpus-%g.jsonl" % mb)
    if not os.path.exists(path):
        r = random.Random(2025)
        docs = corpus.documents()
        paras = corpus.sotu_paragraphs()
        sents = corpus.sentences(paras)
        with open(path + ".tmp", "w") as f:
            for doc in generate(r, docs, paras, sents, int(mb * 1e6)):
                f.write(json.dumps(doc, ensure_ascii=False) + "\n")
        os.rename(path + ".tmp", path)
    with open(path, "rb") as f:
        ndocs = sum(1 for _ in f)
    print("# %s: %d documents, %d bytes" % (path, ndocs,
                                            os.path.getsize(path)))
    bad = 0
    for k, opts in enumerate(CONFIGS):
        ra, va, oa = run(old, opts, path, d, "old")
        rb, vb, ob = run(new, opts, path, d, "new")
        with open(vb) as f:
            kept = sum(line.split("\t")[1].rstrip("\n") == "keep"
                       for line in f)
        ok = ra == rb == 0 and same(va, vb) and same(oa, ob)
        bad += not ok
        print("%s - filter-diff config %d (%s): %s, %d of %d kept" % (
            "ok" if ok else "not ok", k, opts[:60],
            "same verdicts and output" if ok else
            "exit %d/%d, verdicts or output differ" % (ra, rb), kept, ndocs))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
