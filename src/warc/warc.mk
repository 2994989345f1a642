# warc.mk - WARC and WET files to documents (src/warc): the record reader
# over plain, gzip and zstd files, HTTP message decoding, charsets, and
# the main-text extractor over gumbo's HTML5 tree (pskd-unwarc).  Only
# pskd-unwarc links gumbo, uchardet, brotli's decoder and libdeflate; so
# do the replays of the warc fuzz targets and the libFuzzer build, which
# link this code.
WARC_LIBS = -lgumbo -luchardet -lbrotlidec -ldeflate
$(B)/pskd-unwarc: $(O)/libpskd-warc.a
$(B)/pskd-unwarc fuzz: LIBS += $(WARC_LIBS)
$(O)/tests/replay-warc $(O)/tests/replay-http-body \
    $(O)/tests/replay-extract: LIBS += $(WARC_LIBS)
