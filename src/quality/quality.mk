# quality.mk - the quality family (src/quality), the private code of
# pskd-filter and pskd-redact:
#   pyclass.c    the character classes of Python's str that datatrove's
#                rules test, and datatrove's punctuation sets
#   scan.c       byte scans in vector code (SSE2) and without
#   lines.c      the line and paragraph splits, duplicates among them
#   seg.c        words and sentences: ICU's UAX #29 break iterators
#   sent.c       sentences of ASCII text by the same rules, without ICU
#   text.c       a document's text as the rule sets share it
#   gopher.c repetition.c ngram.c c4.c fineweb.c url.c   the rule sets
#   settings.c   every threshold by name (--set)
#   pii.c        pskd-redact's email and IPv4 patterns
#   hset.c       the hash set they count with
$(B)/pskd-filter $(B)/pskd-redact: $(O)/libpskd-quality.a
# ICU (libicu-dev): the break iterators and character properties; linked
# into these two programs only, and into what links every family (unit
# tests, fuzz replays, libFuzzer builds).
QUALITY_LIBS = -licui18n -licuuc -licudata
$(B)/pskd-filter $(B)/pskd-redact: LIBS += $(QUALITY_LIBS)
$(O)/tests/%: LIBS += $(QUALITY_LIBS)
fuzz: LIBS += $(QUALITY_LIBS)
