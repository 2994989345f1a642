# get.mk - pskd-get's family (src/get): the transfer engine (lists, runs,
# one shard's fetch, resume, attempts, progress, --verify), the curl
# driver, the manifest and checkpoints, sha256.  get.h says what is where.
$(B)/pskd-get: $(O)/libpskd-get.a
