# dedup.mk - the dedup family (src/dedup): frames, normalisation, MinHash,
# the LSH index and its map-reduce form.
$(B)/pskd-shingle $(B)/pskd-minhash $(B)/pskd-lsh: $(O)/libpskd-dedup.a
