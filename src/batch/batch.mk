# batch.mk - the sample family (src/batch): windows gathered from a token
# stream and rows of whole documents (pskd-window), the per-epoch
# permutation (pskd-shuffle), the order of a weighted mix (pskd-mix), and
# the output of samples in any order that both write.  pskd-stats counts
# what the document rows would keep with pack.c (stats.mk links it, after
# the stats family that calls it).
$(B)/pskd-window $(B)/pskd-shuffle $(B)/pskd-mix: $(O)/libpskd-batch.a
