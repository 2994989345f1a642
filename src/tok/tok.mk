# tok.mk - pskd-tok's family (src/tok): vocabularies of every kind (vocab.h),
# BPE, ranks, pre-tokenizers, char vocabularies, training, and the modes of
# pskd-tok.  The Unicode tables it needs beyond PCRE2's are generated at
# build time from the installed utf8proc (src/gen/ucd.c -> build/gen/ucd.h).
GENHDR += build/gen/ucd.h build/gen/datadir.h

$(B)/pskd-tok: $(O)/libpskd-tok.a
# PCRE2 (tokenizer.json's regular expressions): pskd-tok only, and what
# links the whole family (unit tests, fuzz replays, libFuzzer builds).
$(B)/pskd-tok: LIBS += -lpcre2-8
$(O)/tests/%: LIBS += -lpcre2-8
fuzz: LIBS += -lpcre2-8

# The first build has no -MMD files yet: name the includers of ucd.h.
$(O)/tok/pretok.o: build/gen/ucd.h
$(O)/tok/vocab.o: build/gen/datadir.h

build/gen/ucd.h: src/gen/ucd.c
	@mkdir -p build/gen
	$(CC) -O2 -o build/gen/ucd src/gen/ucd.c -lutf8proc -lpcre2-8
	build/gen/ucd > build/gen/ucd.h.tmp
	mv build/gen/ucd.h.tmp build/gen/ucd.h

# DATADIR, where pskd-tok looks for installed vocabularies last, compiled in
# through datadir.h, which is rewritten (and what includes it rebuilt) when
# it does not hold the DATADIR of this make: a changed PREFIX rebuilds
# pskd-tok, the same PREFIX again changes nothing.
TOK_DATADIR_DEF = \#define PSKD_TOK_DATADIR "$(DATADIR)"
ifneq ($(file <build/gen/datadir.h),$(TOK_DATADIR_DEF))
build/gen/datadir.h: tok-datadir-changed
endif
build/gen/datadir.h:
	@mkdir -p build/gen
	printf '%s\n' '$(TOK_DATADIR_DEF)' > $@.tmp
	mv $@.tmp $@
.PHONY: tok-datadir-changed
tok-datadir-changed:

# make install: the tokenizer.json files make deps put in vocab/ as well
# (the Makefile's own recipe copies vocab/*.tiktoken).
install: tok-install-json
tok-install-json: all
	if ls vocab/*.json > /dev/null 2>&1; then \
	    mkdir -p $(DESTDIR)$(DATADIR) && \
	    cp vocab/*.json $(DESTDIR)$(DATADIR)/; fi
.PHONY: tok-install-json

# libFuzzer builds compile the sources directly.
fuzz: build/gen/ucd.h build/gen/datadir.h
