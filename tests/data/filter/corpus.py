"""corpus.py - the documents of pskd-filter's and pskd-redact's reference
tests, made the same way every time (a seeded random.Random, sorted
inputs): make-fixtures.py writes them to docs.jsonl and runs datatrove on
them; tests/t/filter-reference reads that file, and makes big_doc() (10 MB,
not committed) itself.

Sources, all of them public domain or this project's own: the State of the
Union addresses of examples/corpus (paragraphs grouped into documents),
pskd's manual pages (rendered by mandoc), web pages and mail built from
those sentences with boilerplate of our own, and short and pathological
documents written here (the edge cases of issue 25; the non-Latin texts
are sentences of our own).
"""
import json
import os
import random
import re
import subprocess

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))


def sotu_paragraphs():
    out = []
    for k in range(4):
        path = os.path.join(TOP, "examples/corpus/sotu-%03d.jsonl.zst" % k)
        data = subprocess.run(["zstd", "-dc", path], check=True,
                              capture_output=True).stdout.decode()
        for line in data.splitlines():
            out.append(json.loads(line)["text"])
    return out


def manuals():
    out = []
    man = os.path.join(TOP, "man")
    for name in sorted(os.listdir(man)):
        text = subprocess.run(["mandoc", "-Tutf8", os.path.join(man, name)],
                              check=True, capture_output=True).stdout.decode()
        out.append((name, re.sub(".\b", "", text)))
    return out


NAV = ["Home", "About us", "Contact", "Blog", "News", "Shop", "Login",
       "Sign up", "Search", "Menu", "Share on Facebook", "Tweet", "Subscribe"]
BOILER = [
    "This website uses cookies to improve your experience.",
    "By continuing you agree to our Terms of Use and Privacy Policy.",
    "Please enable JavaScript to view the comments.",
    "Copyright 2024 Example Media. All rights reserved.",
    "Read more...",
    "Click here to subscribe to our newsletter!",
    "Posted by admin on March 3, 2021",
    "#news #politics #history",
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit.",
    "function init() { document.getElementById('x').focus(); }",
    "We use cookies and similar technologies, see our cookie policy.",
    "Related posts:",
    "• Next article",
    "- Previous article",
    "Loading…",
    "[edit]",
]


def sentences(paragraphs):
    out = []
    for p in paragraphs:
        out.extend(s for s in re.split(r"(?<=[.!?])\s+", p) if s)
    return out


def web_page(r, sents, k):
    lines = []
    if r.random() < 0.8:
        lines.append(" | ".join(r.sample(NAV, r.randint(3, 8))))
    title = r.choice(sents)[:60]
    lines.append(title)
    for _ in range(r.randint(0, 12)):
        if r.random() < 0.6:
            para = " ".join(r.choice(sents) for _ in range(r.randint(1, 5)))
            if r.random() < 0.2:
                para += " [%d]" % r.randint(1, 40)
            if r.random() < 0.1:
                para += " [citation needed]"
            lines.append(para)
        elif r.random() < 0.5:
            lines.append(r.choice(BOILER))
        else:
            lines.append(r.choice(["• ", "- ", "* ", "1. "]) +
                         r.choice(sents)[:r.randint(5, 80)])
    if r.random() < 0.5:
        lines.extend(r.sample(BOILER, r.randint(1, 4)))
    if r.random() < 0.2:	# a footer repeated
        lines.extend([lines[-1]] * r.randint(1, 5))
    sep = "\n\n" if r.random() < 0.3 else "\n"
    text = sep.join(lines)
    if r.random() < 0.15:
        text = text.replace("\n", "\r\n")
    if r.random() < 0.5:
        text += "\n"
    return text


NAMES = ["alice", "bob", "carol", "dave", "eve", "mallory", "trent"]
HOSTS = ["example.com", "mail.example.org", "lists.example.net",
         "uni-example.edu", "sub.domain.example.co.uk"]
IPS = ["8.8.8.8", "192.168.1.20", "10.0.0.7", "172.16.4.2", "127.0.0.1",
       "203.0.113.9", "100.64.1.1", "169.254.3.4", "1.1.1.1", "93.184.216.34",
       "255.255.255.255", "224.0.0.251", "192.0.0.9", "198.18.0.1",
       "240.1.2.3", "0.0.0.0", "011.2.3.4", "300.1.2.3", "1.2.3.256",
       "4.3.2.1.5"]


def mail(r, sents, k):
    a, b = r.sample(NAMES, 2)
    ha, hb = r.choice(HOSTS), r.choice(HOSTS)
    ip = r.choice(IPS)
    head = [
        "From: %s <%s@%s>" % (a.title(), a, ha),
        "To: %s.%s@%s" % (b, r.choice(NAMES), hb),
        "Date: Mon, %d Jun 2023 10:%02d:00 +0000" % (r.randint(1, 28),
                                                   r.randint(0, 59)),
        "Subject: Re: %s" % r.choice(sents)[:40],
        "Received: from %s ([%s]) by %s" % (ha, ip, hb),
        "Message-ID: <%d.%d@%s>" % (k, r.randint(1, 99999), ha),
        "",
    ]
    body = []
    for _ in range(r.randint(1, 6)):
        body.append(" ".join(r.choice(sents) for _ in range(r.randint(1, 4))))
    if r.random() < 0.5:
        body.append("On Sunday, %s wrote:" % b.title())
        body.extend("> " + r.choice(sents) for _ in range(r.randint(1, 5)))
    if r.random() < 0.5:
        body.append("Please reply to %s_%s+list@%s or call the desk; our "
                    "server is at %s." % (a, b, r.choice(HOSTS),
                                          r.choice(IPS)))
    body.extend(["", "-- ", "%s, %s" % (a.title(), ha)])
    return "\n".join(head + body) + "\n"


EDGES = [
    ("empty", ""),
    ("one-word", "word"),
    ("whitespace", " \t\n  \n\u3000 "),
    ("newlines", "\n\n\n"),
    ("bullets", "• one\n• two\n• three\n- four\n- five\n"),
    ("bullets-only", "•\n•\n•\n"),
    ("ellipses", "Wait...\nAnd then…\nSo on...\nThe end.\n"),
    ("hashes", "#one #two #three #four #five the and to of"),
    ("punct-only", "!!! ??? ... --- ((( ))) ;;; ,,,"),
    ("numbers", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"),
    ("no-final-newline", "The first line is here.\nThe second line is there."),
    ("crlf", "The first line ends here.\r\nThe second line ends too.\r\n"),
    ("cr-only", "One line.\rAnother line.\rA third one.\r"),
    ("vt-ff", "Line one.\vLine two.\fLine three.\x1cFour.\x1dFive.\x1e"),
    ("nel-ls-ps", "One.\x85Two.\u2028Three.\u2029Four."),
    ("zh", "我们今天去公园散步。天气很好，阳光明媚。孩子们在草地上玩耍，"
           "老人们在树下下棋。这是一个美好的周末。"),
    ("ja", "今日は天気がいいので、公園に行きました。桜の花がとてもきれいでした。"
           "友達と一緒にお弁当を食べました。"),
    ("ko", "오늘은 날씨가 좋아서 공원에 갔습니다. 친구들과 함께 점심을 먹었습니다."),
    ("ru", "Сегодня хорошая погода. Мы пошли гулять в парк и встретили "
           "старых друзей. Это был прекрасный день, и все были рады."),
    ("ar", "ذهبنا إلى السوق في الصباح. كان الجو جميلا والناس سعداء. "
           "اشترينا الخبز والفاكهة ثم عدنا إلى البيت."),
    ("hi", "आज मौसम बहुत अच्छा है। हम पार्क में घूमने गए। बच्चे खेल रहे थे।"),
    ("th", "วันนี้อากาศดีมาก เราไปเดินเล่นที่สวนสาธารณะ เด็กๆ กำลังเล่นกันอย่างสนุกสนาน"),
    ("el", "Σήμερα ο καιρός είναι ωραίος. Πήγαμε στο πάρκο με τους φίλους μας."),
    ("he", "היום מזג האוויר יפה. הלכנו לפארק עם החברים שלנו."),
    ("emoji", "I love it 😀👍🏽 so much! 👨‍👩‍👧 family time 🇫🇷 flags."),
    ("combining", "Cafe\u0301 de\u0301ja\u0300 vu, n\u0303 and a\u0308. "
                  " \u0301lone mark."),
    ("zwsp", "word\u200bword\u200b\u200b nbsp\u00a0here \u2007figure"),
    ("controls", "a\x00b\x01c\x07d\x7fe\x9ff and more text"),
    ("long-word", "short " + "x" * 1200 + " words here."),
    ("kelvin", "This site uses coo\u212aies. And the privacy policy is "
               "long. We are here to be with the people that have it. "
               "Another line with enough words."),
    ("dotted-i", "LOREM \u0130PSUM dolor. The text goes on and on for "
                 "the people."),
    ("contractions", "I don't think we'll go. It's the end of the line, "
                     "isn't it? They've been there. We couldn't've."),
    ("urls", "See https://www.example.com/path?a=1&b=2 and "
             "http://user:pass@host.example.org:8080/x for more."),
    ("lorem", "Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
              "Sed do eiusmod tempor incididunt ut labore."),
    ("curly", "The function is f(x) = {x | x > 0}. That is the set.\n"),
    ("citations", "Paris is the capital of France.[1] It is large.[edit]\n"
                  "London is big. [citation needed]\nRome is old [٣].\n"
                  "Berlin is [12]"),
    ("policy", "We value your privacy. Read our Privacy Policy now.\n"
               "This page USES COOKIES for you.\nThe end is near now.\n"),
    ("javascript", "You need JavaScript enabled for this page.\n"
                   "It is the way to be with it.\n"),
    ("repeated-lines", "Same line here.\n" * 20),
    ("repeated-paras", "Same paragraph here.\n\n" * 10 + "Other.\n"),
    ("repeated-words", "the the the the the the the the the the the the "
                       "the the the the the the the the"),
    ("repeated-ngrams", "a b c d e " * 30),
    ("concat-ngrams", "ab c ab c a bc a bc abc abc ab c ab c " * 5),
    ("tabs", "col1\tcol2\tcol3\nval1\tval2\tval3\n"),
    ("leading-newlines", "\n\nStarts after blank lines.\n\n\nAnd ends.\n\n"),
    ("surrogate-escape", "An astral \U0001d11e clef and \U00010348 hwair."),
    ("pii", "Write to john.doe@example.com, joe@[192.168.0.1] or "
            "x@[8.8.8.8]; !bang@host.com and a..b@c.org, -x@y.z, "
            "e\u0301mile@mail.fr, caf\u00e9@x.com, under_score@x.co, "
            "trailing@dot.com. hyphen@a-b.com, bad@-a.com, "
            "deep@a.b.c.d.e, tag@[1.2.3.tag:], end@x. "
            "Servers 8.8.8.8, 8.8.8.08, 1.2.3.4.5.6.7.8, 1234.5.6.7, "
            "01.02.03.04, 192.0.0.9, 192.0.0.10, 100.64.0.1, "
            "224.0.0.1 and 2.2.2.2567."),
    ("pii-many", " ".join("u%d@h%d.example.com %d.%d.%d.%d" %
                          (i, i, 11 + i, 22, 33, i) for i in range(9))),
]


def url_for(r, k):
    schemes = ["https://", "http://", "", "ftp://"]
    host = r.choice(["www.example.com", "blog.example.org", "example.net",
                     "news.site.example", "shop.example.com", "EXAMPLE.COM",
                     "xn--bcher-kva.example"])
    u = r.choice(schemes)
    if r.random() < 0.1:
        u += "user:pw@"
    u += host
    if r.random() < 0.2:
        u += ":%d" % r.choice([80, 443, 8080])
    u += r.choice(["", "/", "/page/%d" % k, "/a/b?q=%d" % k,
                   "/x#frag", "/casino-royale"])
    return u


def documents():
    r = random.Random(25)
    paras = sotu_paragraphs()
    sents = sentences(paras)
    docs = []

    def add(kind, text):
        docs.append({"id": "%s-%03d" % (kind, len(docs)), "text": text,
                     "url": url_for(r, len(docs))})

    i = 0
    while len(docs) < 100:
        n = r.choice([1, 1, 2, 3, 5, 8])
        sep = r.choice(["\n", "\n\n", "\n", " "])
        add("sotu", sep.join(paras[i:i + n]))
        i += n + r.randint(0, 20)
    for name, text in manuals():
        add("man", text)
    for k in range(130):
        add("web", web_page(r, sents, k))
    for k in range(50):
        add("mail", mail(r, sents, k))
    for name, text in EDGES:
        add("edge-" + name, text)
    return docs


def big_doc():
    """A 10 MB document: State of the Union paragraphs, one a line."""
    paras = sotu_paragraphs()
    out, size, i = [], 0, 0
    while size < 10_000_000:
        p = paras[i % len(paras)]
        out.append(p)
        size += len(p.encode()) + 1
        i += 7
    return "\n".join(out)
