# unzst.mk - the decompressors (src/unzst): zstd, gzip, xz and bzip2
# shards to plain bytes (pskd-unzst).  Only pskd-unzst links liblzma and
# libbz2; so does the libFuzzer build, which links every family's code.
$(B)/pskd-unzst: $(O)/libpskd-unzst.a
$(B)/pskd-unzst fuzz: LIBS += -llzma -lbz2
