# tok.mk - pskd-tok's family (src/tok): vocabularies of every kind (vocab.h),
# BPE, ranks, pre-tokenizers, char vocabularies, training, the modes of
# pskd-tok, and what other families may ask of it (tokinfo.h).  The Unicode tables it needs beyond PCRE2's are generated at
# build time from the installed utf8proc (src/gen/ucd.c -> build/gen/ucd.h).
GENHDR += build/gen/ucd.h

$(B)/pskd-tok: $(O)/libpskd-tok.a
# tokinfo.h: the tokenizer facts pskd-export and the statistics family ask
# for (by V alone, pskd-stats and pskd-report link no vocabulary reader, so
# no PCRE2).
$(B)/pskd-export $(B)/pskd-stats $(B)/pskd-report: $(O)/libpskd-tok.a
$(B)/pskd-export: LIBS += -lpcre2-8
# PCRE2 (tokenizer.json's regular expressions): pskd-tok only, and what
# links the whole family (unit tests, fuzz replays, libFuzzer builds).
$(B)/pskd-tok: LIBS += -lpcre2-8
$(O)/tests/%: LIBS += -lpcre2-8
fuzz: LIBS += -lpcre2-8

# The first build has no -MMD files yet: name the includers of ucd.h.
$(O)/tok/bpe-pretok.o: build/gen/ucd.h

build/gen/ucd.h: src/gen/ucd.c
	@mkdir -p build/gen
	$(CC) -O2 -o build/gen/ucd src/gen/ucd.c -lutf8proc -lpcre2-8
	build/gen/ucd > build/gen/ucd.h.tmp
	mv build/gen/ucd.h.tmp build/gen/ucd.h

# make install: the tokenizer.json files make deps put in vocab/ as well
# (the Makefile's own recipe copies vocab/*.tiktoken).
install: tok-install-json
tok-install-json: all
	if ls vocab/*.json > /dev/null 2>&1; then \
	    mkdir -p $(DESTDIR)$(DATADIR) && \
	    cp vocab/*.json $(DESTDIR)$(DATADIR)/; fi
.PHONY: tok-install-json

# libFuzzer builds compile the sources directly.
fuzz: build/gen/ucd.h
