# get.mk - pskd-get's family (src/get): the curl driver, the manifest and
# checkpoints, sha256.
$(B)/pskd-get: $(O)/libpskd-get.a
