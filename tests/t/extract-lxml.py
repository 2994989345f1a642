"""extract-lxml.py - readability-lxml (Debian python3-readability), the
second reference extractor of tests/t/extract-f1 and tests/bench/unwarc.sh:
reads a JSON array of UTF-8 pages on stdin, prints a JSON array of the
text of their summaries.  With a count argument, extracts every page that
many times and prints only the number of pages."""
import json
import logging
import sys

import lxml.html
from readability import Document

logging.disable(logging.CRITICAL)
pages = json.load(sys.stdin)
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 0


def one(html):
    try:
        summary = Document(html).summary(html_partial=True)
        return lxml.html.fromstring(summary).text_content()
    except Exception:
        return ""


if rounds > 0:
    n = 0
    for _ in range(rounds):
        for p in pages:
            one(p)
            n += 1
    print(n)
else:
    print(json.dumps([one(p) for p in pages]))
