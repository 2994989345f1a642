#!/usr/bin/python3
"""tok_corpus.py MAXBYTES OUT.jsonl [PAGES] - a multilingual test corpus
from what this machine has installed, in three equal parts: up to PAGES
(default 50) man pages rendered by mandoc, the man pages' sources (zcat),
and the text files of /usr/share/doc.  One JSON Lines document per page or
file ({"text": ...}), invalid UTF-8 replaced (U+FFFD), files in sorted
order so the same machine always gives the same corpus; the pages of the
language folders of /usr/share/man come round-robin, so a small corpus
still holds every language.  Not a test itself (not executable):
tests/t/tok-tiktoken and tests/bench/tok.sh run it."""

import glob
import itertools
import gzip
import json
import os
import subprocess
import sys


def man_pages():
    """Rendered pages, interleaving the language folders."""
    folders = sorted(d for d in glob.glob('/usr/share/man/*')
                     if os.path.isdir(d))
    lists = []
    for d in folders:
        files = sorted(glob.glob(d + '/**/*.gz', recursive=True))
        lists.append(files)
    i = 0
    while any(i < len(f) for f in lists):
        batch = [f[i] for f in lists if i < len(f)]
        i += 1
        for path in batch:
            yield path


def render(path):
    try:
        out = subprocess.run(['mandoc', '-Tutf8', path], capture_output=True,
                             timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    # Strip the backspace overstrikes (bold, underline) like col -b.
    b = bytearray()
    for c in out:
        if c == 8:
            if b:
                b.pop()
            continue
        b.append(c)
    return bytes(b)


def man_source(path):
    try:
        with gzip.open(path, 'rb') as f:
            return f.read(1 << 20)
    except (OSError, EOFError, ValueError):
        return None


def doc_files():
    for path in sorted(glob.glob('/usr/share/doc/**/*', recursive=True)):
        if os.path.isfile(path) and not os.path.islink(path):
            yield path


def read_doc(path):
    try:
        with open(path, 'rb') as f:
            data = f.read(1 << 20)
        if path.endswith('.gz'):
            data = gzip.decompress(data)[:1 << 20]
    except (OSError, EOFError, gzip.BadGzipFile, ValueError):
        return None
    if b'\0' in data[:4096]:
        return None
    return data


def main():
    limit = int(sys.argv[1])
    total = 0
    with open(sys.argv[2], 'w', encoding='utf-8') as out:
        have_mandoc = subprocess.run(['sh', '-c', 'command -v mandoc'],
                                     capture_output=True).returncode == 0
        pages = int(sys.argv[3]) if len(sys.argv) > 3 else 50
        sources = []
        if have_mandoc:
            sources.append((itertools.islice(man_pages(), pages), render))
        sources.append((man_pages(), man_source))
        sources.append((doc_files(), read_doc))
        for n, (paths, fn) in enumerate(sources):
            cap = limit * (n + 1) // len(sources)
            for path in paths:
                if total >= cap:
                    break
                data = fn(path)
                if not data:
                    continue
                text = data.decode('utf-8', 'replace')
                out.write(json.dumps({'text': text}, ensure_ascii=False))
                out.write('\n')
                total += len(data)


main()
