# tok.mk - pskd-tok's family (src/tok): BPE, ranks, pre-tokenizers, char
# vocabularies, training.  Its Unicode tables are generated at build time
# from the installed utf8proc (src/gen/ucd.c -> build/gen/ucd.h).
GENHDR += build/gen/ucd.h

$(B)/pskd-tok: $(O)/libpskd-tok.a

# The first build has no -MMD files yet: name the includers of ucd.h.
$(O)/tok/pretok.o: build/gen/ucd.h

build/gen/ucd.h: src/gen/ucd.c
	@mkdir -p build/gen
	$(CC) -O2 -o build/gen/ucd src/gen/ucd.c -lutf8proc
	build/gen/ucd > build/gen/ucd.h.tmp
	mv build/gen/ucd.h.tmp build/gen/ucd.h

# libFuzzer builds compile the sources directly.
fuzz: build/gen/ucd.h
