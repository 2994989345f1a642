#!/usr/bin/python3
"""make-fixtures.py - regenerate the fixtures of tests/t/filter-reference and
tests/t/redact-reference: the documents (docs.jsonl, from corpus.py) and
datatrove's decisions on them (verdicts.tsv, redact.jsonl), with the
options pskd-filter takes for each configuration (configs.tsv).

    tests/data/filter/make-fixtures.py DATATROVE

DATATROVE is a checkout of huggingface/datatrove (its src/ is put on the
path; tested with 0.10.0, commit a649de79).  Run with Debian's python3 and
python3-nltk, python3-loguru, python3-fsspec, python3-regex, python3-numpy,
python3-icu (tests/deps/filter.deb).  make check needs none of this.

Stubbed (imported by datatrove's modules, unused by these filters):
huggingface_hub and huggingface_hub.utils (remote file systems, in
datatrove.io), humanize (pretty numbers in datatrove.utils.stats).

datatrove >= 0.4 segments English with spaCy, which Debian does not
package, and NLTK's punkt data is not packaged either.  So each filter runs
with two word tokenizers handed to it as its `language` (datatrove accepts a
WordTokenizer there):
  icu   pskd's segmentation, written again here over PyICU: the segments
        between ICU's UAX #29 word boundaries, stripped, the empty ones
        left out; sentences between sentence boundaries.  pskd must agree
        with datatrove on every document.
  nltk  datatrove's NLTKTokenizer of before 0.4 as far as Debian can run
        it: NLTK's word tokenizer on the sentences of an untrained punkt
        (no English pickle: no abbreviation list).  The agreement per rule
        is measured, not required, but for the rules that do not read words.
PIIFormatter runs afresh on each document (pskd-redact restarts its turn
through the replacements at each document; datatrove's goes on across a
task, which is the same for a task of one document).
"""
import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus  # noqa: E402


class _Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return type(name, (), {"__init__": lambda self, *a, **k: None})


for _m in ("huggingface_hub", "huggingface_hub.utils", "humanize"):
    sys.modules[_m] = _Stub(_m)
sys.path.insert(0, os.path.join(sys.argv[1], "src"))

import icu  # noqa: E402
from nltk.tokenize import NLTKWordTokenizer  # noqa: E402
from nltk.tokenize.punkt import PunktSentenceTokenizer  # noqa: E402

from datatrove.data import Document  # noqa: E402
from datatrove.pipeline.filters.c4_filters import C4QualityFilter  # noqa: E402
from datatrove.pipeline.filters.fineweb_quality_filter import FineWebQualityFilter  # noqa: E402
from datatrove.pipeline.filters.gopher_quality_filter import GopherQualityFilter  # noqa: E402
from datatrove.pipeline.filters.gopher_repetition_filter import GopherRepetitionFilter  # noqa: E402
from datatrove.pipeline.formatters.pii import PIIFormatter  # noqa: E402
from datatrove.utils.word_tokenizers import WordTokenizer, strip_strings  # noqa: E402


def _cp_offsets(text, bounds16):
    """UTF-16 offsets (ascending) to offsets in code points."""
    out, i16, i = [], 0, 0
    for b in bounds16:
        while i16 < b:
            i16 += 2 if ord(text[i]) > 0xFFFF else 1
            i += 1
        out.append(i)
    return out


class ICUTokenizer(WordTokenizer):
    def __init__(self):
        super().__init__("en")

    def _bounds(self, text, word):
        root = icu.Locale.getRoot()
        bi = (icu.BreakIterator.createWordInstance(root) if word else
              icu.BreakIterator.createSentenceInstance(root))
        bi.setText(text)
        b16 = []
        b = bi.first()
        while True:
            b = bi.nextBoundary()
            if b == icu.BreakIterator.DONE:
                break
            b16.append(b)
        return [0] + _cp_offsets(text, b16)

    def _pieces(self, text, word):
        b = self._bounds(text, word)
        return [text[b[k]:b[k + 1]] for k in range(len(b) - 1)]

    def word_tokenize(self, text):
        return strip_strings(self._pieces(text, True))

    def sent_tokenize(self, text):
        return strip_strings(self._pieces(text, False))

    def span_tokenize(self, text):
        b = self._bounds(text, False)
        return [(b[k], b[k + 1]) for k in range(len(b) - 1)]


class NLTKTokenizer(WordTokenizer):
    def __init__(self):
        super().__init__("en")
        self.punkt = PunktSentenceTokenizer()
        self.words = NLTKWordTokenizer()

    def word_tokenize(self, text):
        return strip_strings([t for s in self.punkt.tokenize(text)
                              for t in self.words.tokenize(s)])

    def sent_tokenize(self, text):
        return strip_strings(self.punkt.tokenize(text))

    def span_tokenize(self, text):
        return list(self.punkt.span_tokenize(text))


GQ_LINES_OFF = dict(min_doc_words=None, max_doc_words=None,
                    min_avg_word_length=None, max_avg_word_length=None,
                    max_symbol_word_ratio=None, max_non_alpha_words_ratio=None,
                    min_stop_words=None)
OFF = ("gopher.min_doc_words gopher.max_doc_words gopher.min_avg_word_length "
       "gopher.max_avg_word_length gopher.max_symbol_word_ratio "
       "gopher.max_non_alpha_words_ratio gopher.min_stop_words").split()

# name: (datatrove's steps for a tokenizer, pskd-filter's options)
CONFIGS = {
    "gopher-quality": (lambda t: [GopherQualityFilter(language=t)],
                       "-r gopher-quality"),
    "gopher-quality-lines": (
        lambda t: [GopherQualityFilter(language=t, **GQ_LINES_OFF)],
        "-r gopher-quality " + " ".join("-s %s=off" % k for k in OFF)),
    "gopher-repetition": (lambda t: [GopherRepetitionFilter(language=t)],
                          "-r gopher-repetition"),
    "c4": (lambda t: [C4QualityFilter(language=t)], "-r c4"),
    "c4-no-punct": (lambda t: [C4QualityFilter(language=t,
                                               filter_no_terminal_punct=False)],
                    "-r c4 -s c4.filter_no_terminal_punct=0"),
    "c4-sentences": (lambda t: [C4QualityFilter(language=t,
                                                split_paragraph=False)],
                     "-r c4 -s c4.split_paragraph=0"),
    "fineweb": (lambda t: [FineWebQualityFilter(language=t)], "-r fineweb"),
    # FineWeb's recipe: each filter judges what the one before passed on
    "fineweb-chain": (
        lambda t: [GopherRepetitionFilter(language=t),
                   GopherQualityFilter(language=t),
                   C4QualityFilter(language=t, filter_no_terminal_punct=False),
                   FineWebQualityFilter(language=t)],
        "-r gopher-repetition,gopher-quality,c4,fineweb "
        "-s c4.filter_no_terminal_punct=0"),
}


def verdict(steps, text):
    doc = Document(text=text, id="x")
    try:
        for f in steps:
            res = f.filter(doc)
            if res is not True:
                ok, why = res if isinstance(res, tuple) else (res, None)
                if not ok:
                    return why or "dropped"
    except Exception as e:  # datatrove fails (ZeroDivisionError)
        return "error:" + type(e).__name__
    return "keep"


def main():
    docs = corpus.documents()
    with open(os.path.join(HERE, "docs.jsonl"), "w") as f:
        for d in docs:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "configs.tsv"), "w") as f:
        for name, (_, opts) in CONFIGS.items():
            f.write("%s\t%s\n" % (name, opts))
    big = corpus.big_doc()
    toks = {"icu": ICUTokenizer(), "nltk": NLTKTokenizer()}
    with open(os.path.join(HERE, "verdicts.tsv"), "w") as f:
        for name, (make, _) in CONFIGS.items():
            for tname, tok in toks.items():
                steps = make(tok)
                for d in docs:
                    f.write("%s\t%s\t%s\t%s\n" % (name, tname, d["id"],
                                                  verdict(steps, d["text"])))
                if tname == "icu" and name in ("gopher-quality",
                                               "gopher-repetition", "c4",
                                               "fineweb"):
                    f.write("%s\t%s\tbig\t%s\n" % (name, tname,
                                                   verdict(steps, big)))
                print(name, tname, file=sys.stderr)
    with open(os.path.join(HERE, "redact.jsonl"), "w") as f:
        for d in docs:
            out = PIIFormatter().format(d["text"])
            if out != d["text"]:
                f.write(json.dumps({"id": d["id"], "text": out},
                                   ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
