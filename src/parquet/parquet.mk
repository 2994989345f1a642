# parquet.mk - Parquet files to JSON Lines (src/parquet): the Thrift
# compact footer, the encodings, the codecs.  Only pskd-unparquet links the
# codec libraries beyond zlib and libzstd; so do the replays of the
# parquet fuzz targets and the libFuzzer build, which link this code.
PARQUET_LIBS = -lsnappy -lbrotlidec -llz4
$(B)/pskd-unparquet: $(O)/libpskd-parquet.a
$(B)/pskd-unparquet fuzz: LIBS += $(PARQUET_LIBS)
$(O)/tests/replay-parquet-footer $(O)/tests/replay-parquet-page \
    $(O)/tests/replay-parquet-file: LIBS += $(PARQUET_LIBS)
