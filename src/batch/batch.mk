# batch.mk - the sample family (src/batch): windows gathered from a token
# stream (pskd-window), the per-epoch permutation (pskd-shuffle).
$(B)/pskd-window $(B)/pskd-shuffle: $(O)/libpskd-batch.a
