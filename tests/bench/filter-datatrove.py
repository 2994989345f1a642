#!/usr/bin/python3
"""filter-datatrove.py DATATROVE TOKENIZER FILE [CONFIG] - datatrove's
filters of one configuration of tests/data/filter/make-fixtures.py (default
fineweb-chain: the four filters of the FineWeb recipe, Gopher repetition,
Gopher quality, C4 without the terminal punctuation rule, FineWeb, in that
order) on each document of FILE, with make-fixtures.py's stubs and
tokenizers (icu: pskd's segmentation; nltk).  Prints the documents, the
kept ones, and the CPU seconds of the loop (time.process_time, imports
left out): the least of three loops, as the bench takes pskd-filter's."""
import importlib.util
import json
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
path = os.path.join(here, "../data/filter/make-fixtures.py")
config = sys.argv[4] if len(sys.argv) > 4 else "fineweb-chain"
sys.argv = [path, sys.argv[1], sys.argv[2], sys.argv[3]]
spec = importlib.util.spec_from_file_location("make_fixtures", path)
mf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mf)

tok = mf.ICUTokenizer() if sys.argv[2] == "icu" else mf.NLTKTokenizer()
steps = mf.CONFIGS[config][0](tok)
with open(sys.argv[3], encoding="utf-8") as f:
    texts = [json.loads(line)["text"] for line in f]
best = None
for _ in range(3):
    t0 = time.process_time()
    kept = sum(mf.verdict(steps, t) == "keep" for t in texts)
    cpu = time.process_time() - t0
    best = cpu if best is None or cpu < best else best
print(len(texts), kept, "%.3f" % best)
