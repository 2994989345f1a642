# export.mk - pskd-export's family (src/export): the Megatron-LM, nanoGPT
# and llm.c writers and the check that reads them back.  The validation
# split is pskd-shuffle's permutation, so it links the batch family too.
$(B)/pskd-export: $(O)/libpskd-export.a $(O)/libpskd-batch.a
