#!/usr/bin/env python3
"""gather.py - how the pages of tests/data/extract were gathered (run once;
the results are committed).  The pages and their human-annotated article
bodies come from scrapinghub/article-extraction-benchmark (MIT licence,
commit below), a mirror of it at $BENCH: html/HASH.html.gz and
ground-truth.json.  Each page's main text (NAME.txt) starts as the
benchmark's articleBody and was then checked by hand against the page
(see README).  Three pages are re-encoded into the legacy charset of
their script, with a meta tag saying so: the text must come out the same.
"""
import gzip, json, os, subprocess, sys

bench = os.environ.get("BENCH", "/work/.mirror/scrapinghub+article-extraction-benchmark/repo")
commit = "HEAD"
pages = {
    # name: (benchmark hash prefix, legacy charset or None)
    "ko-entermedia": ("0ec95c7261d1", "EUC-KR"),
    "ko-entermedia-2": ("9da36ae4714b", None),
    "ja-lhpat": ("85439e26c41c", None),
    "ja-note100yen": ("f105de6e63ca", "SHIFT_JIS"),
    "ru-gto": ("c4a3637c6696", "CP1251"),
    "ru-wday": ("c82b3d1d540b", None),
    "ru-vse-diety": ("ff0f958ade71", None),
    "en-ctpost": ("05844573ca7e", None),
    "en-slashgear": ("06ee193de4bd", None),
    "en-antijunecleaver": ("0e014df693f1", None),
    "pt-autoracing": ("11ea381ad92b", None),
    "en-sciencealert": ("14cc2a0ca59c", None),
    "en-polygraph": ("1ee91d1fce65", None),
    "it-remember8090": ("20b2b64916b0", None),
    "id-kabarislamia": ("21486419bb10", None),
    "en-macrumors": ("232a43fb15ab", None),
    "en-inexhibit": ("33fe2471fd55", None),
    "en-recipe": ("4219d096902d", None),
    "en-expapp": ("4648a420af99", None),
    "de-comwrap": ("57b4dafd18cf", None),
    "en-ascom": ("5ae11e580afc", None),
    "en-morebikes": ("612cd2982662", None),
}

def git(*args):
    return subprocess.run(["git", "-C", bench] + list(args), capture_output=True, check=True).stdout

truth = json.loads(git("show", commit + ":ground-truth.json"))
names = git("ls-tree", "--name-only", commit, "html/").decode().split()
out = os.path.dirname(os.path.abspath(__file__))
os.makedirs(out + "/pages", exist_ok=True)
for name, (h, legacy) in pages.items():
    key = next(k for k in truth if k.startswith(h))
    path = next(n for n in names if n.startswith("html/" + key))
    html = gzip.decompress(git("show", commit + ":" + path)).decode("utf-8")
    if legacy:
        import re
        html = re.sub(r'(?i)<meta[^>]*charset[^>]*>', "", html)
        html = re.sub(r'(?i)<head([^>]*)>', lambda m: "<head%s><meta charset=\"%s\">" % (m.group(1), legacy.lower()), html, count=1)
        data = html.encode(legacy, errors="xmlcharrefreplace")
    else:
        data = html.encode("utf-8")
    with open(out + "/pages/" + name + ".html.gz", "wb") as f:
        f.write(gzip.compress(data, mtime=0))
    body = truth[key]["articleBody"].strip() + "\n"
    if not os.path.exists(out + "/pages/" + name + ".txt"):
        open(out + "/pages/" + name + ".txt", "w").write(body)
    print(name, key[:12], len(data), truth[key]["url"])
