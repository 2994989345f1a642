# dedup.mk - the dedup family (src/dedup), the private code of pskd-shingle,
# pskd-minhash and pskd-lsh:
#   frame.c       the frame stream between them (pskd-frames(5))
#   normalize.c   text normalisation; shingle.c the hashed n-grams;
#                 steps.c the steps by name (pskd-exact, pskd-decon too)
#   minhash.c     MinHash signatures
#   params.c      the text form of the stream parameters and banding
#   lshindex.c    the LSH index: open, look up, add (lshint.h inside it);
#                 lshchunk.c this run's entries, lshsave.c segments,
#                 lshmanifest.c the manifest
#   lshmr.c       the map-reduce modes of pskd-lsh
#   ixdir.c       a persistent index's directory: lock, manifest, pending
#                 run and its commit; ixinput.c its inputs, known by digest
#                 (ixrun.h: what any index of the family can reuse)
$(B)/pskd-shingle $(B)/pskd-minhash $(B)/pskd-lsh: $(O)/libpskd-dedup.a
