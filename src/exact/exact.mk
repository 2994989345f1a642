# exact.mk - the exact family (src/exact), the private code of pskd-exact
# and pskd-decon (exact.h):
#   units.c     a document's units: its text, paragraphs, lines, spans
#   table.c     the units this run saw, an ordered table in memory
#   seg.c       sorted segments of units in an index directory
#   bloom.c     the Bloom filter of --bloom
#   xindex.c    the units seen: open, look up, add, spill; xsave.c the
#               manifest, the pending run and its commit (through the
#               dedup family's ixrun.h, pskd-lsh's two-phase commit)
#   decide.c    a document's verdict from its repeated units
#   mr.c        the map-reduce modes
#   decon.c     pskd-decon's benchmark n-grams and the lookup
# The normalisation is pskd-shingle's (the dedup family's normalize.c).
$(B)/pskd-exact $(B)/pskd-decon: $(O)/libpskd-exact.a $(O)/libpskd-dedup.a
