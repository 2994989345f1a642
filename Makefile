# pskd - one Makefile: libpskd.a (src/lib, what two or more programs
# share), one library per program family (src/FAMILY/*.c, that family's
# private code), one program per src/pskd-*.c, tests, docs.
#
# Needs GNU make (wildcard, patsubst, foreach, eval, shell).  A family
# says which programs link its library in src/FAMILY/FAMILY.mk, with a line
# "$(B)/pskd-NAME: $(O)/libpskd-FAMILY.a".
.SUFFIXES:
.SECONDARY:
.DELETE_ON_ERROR:
# The families' .mk files are included before `all` is defined.
.DEFAULT_GOAL := all

VERSION = 0.1.0

PREFIX  = /usr/local
BINDIR  = $(PREFIX)/bin
MANDIR  = $(PREFIX)/share/man
DATADIR = $(PREFIX)/share/pskd
# Where Debian's python3 looks for modules under PREFIX.
PYVER   = $(shell /usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo 3)
PYDIR   = $(PREFIX)/lib/python$(PYVER)/dist-packages

CC      = cc
CFLAGS  = -O2 -g
LDFLAGS =
WARN    = -Wall -Wextra -Wshadow -Wconversion -Wstrict-prototypes \
          -Wmissing-prototypes -Wno-sign-conversion
WERROR  =
PSKD_CPPFLAGS = -Isrc/lib -Isrc -Ibuild/gen -D_FILE_OFFSET_BITS=64
LIBS    = -Wl,--as-needed -lzstd -lxxhash -lcrypto -lz -lutf8proc -lm -lpthread

# Build and output folders, overridden by the sanitizer targets.
O = build
B = bin

ALLCFLAGS = $(PSKD_CPPFLAGS) $(CPPFLAGS) $(WARN) $(WERROR:1=-Werror) $(CFLAGS)

PROGS    = $(patsubst src/%.c,$(B)/%,$(wildcard src/pskd-*.c))
LIBSRC   = $(wildcard src/lib/*.c)
LIBOBJ   = $(patsubst src/%.c,$(O)/%.o,$(LIBSRC))
LIBA     = $(O)/libpskd.a
# Program families: every folder of src/ but lib (shared), gen (build-time
# generators) and python.
FAMILIES = $(filter-out lib gen python,$(patsubst src/%/,%,$(wildcard src/*/)))
FAMSRC   = $(foreach f,$(FAMILIES),$(wildcard src/$(f)/*.c))
FAMA     = $(patsubst %,$(O)/libpskd-%.a,$(FAMILIES))
UNITS    = $(patsubst tests/unit/%.c,$(O)/tests/%,$(wildcard tests/unit/*.c))
FUZZERS  = $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
REPLAYS  = $(patsubst %,$(O)/tests/replay-%,$(FUZZERS))
MANPAGES = $(wildcard man/*.[1-9])

# Headers generated at build time (tables); a family's .mk adds its own and
# names the objects that include them (the -MMD files exist only after a
# first build).
GENHDR =
include $(wildcard src/*/*.mk)

all: $(PROGS)

# -MMD: each object depends on the headers it includes, no more.
$(O)/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) -MMD -MP -c -o $@ $<

$(LIBA): $(LIBOBJ)
	@rm -f $@
	ar rcs $@ $(LIBOBJ)

# A family's library: the objects of src/FAMILY/*.c.
$(foreach f,$(FAMILIES),$(eval $(O)/libpskd-$(f).a: \
    $(patsubst src/%.c,$(O)/%.o,$(wildcard src/$(f)/*.c))))
$(O)/libpskd-%.a:
	@rm -f $@
	ar rcs $@ $^

# A program: its own object, the family libraries its family's .mk names,
# then libpskd.a.
$(B)/pskd-%: $(O)/pskd-%.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) \
	    $(filter-out $(LIBA),$(filter %.a,$^)) $(LIBA) $(LIBS)

# Unit tests and fuzz replays link whatever they test: every family library.
$(O)/tests/%: tests/unit/%.c tests/unit/check.h $(FAMA) $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) -MMD -MP $(LDFLAGS) -o $@ $< \
	    -Wl,--start-group $(FAMA) $(LIBA) -Wl,--end-group $(LIBS)

$(O)/tests/replay-%: tests/fuzz/replay.c tests/fuzz/fuzz-%.c $(FAMA) $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) -MMD -MP $(LDFLAGS) -o $@ tests/fuzz/replay.c \
	    tests/fuzz/fuzz-$*.c -Wl,--start-group $(FAMA) $(LIBA) \
	    -Wl,--end-group $(LIBS)

# DATADIR, where programs look for installed data files last (lib's
# datafile.c), compiled in through datadir.h, which is rewritten (and what
# includes it rebuilt) when it does not hold the DATADIR of this make: a
# changed PREFIX rebuilds, the same PREFIX again changes nothing.
DATADIR_DEF = \#define PSKD_DATA_DIR "$(DATADIR)"
ifneq ($(file <build/gen/datadir.h),$(DATADIR_DEF))
build/gen/datadir.h: datadir-changed
endif
build/gen/datadir.h:
	@mkdir -p build/gen
	printf '%s\n' '$(DATADIR_DEF)' > $@.tmp
	mv $@.tmp $@
$(O)/lib/datafile.o: build/gen/datadir.h
fuzz: build/gen/datadir.h
.PHONY: datadir-changed
datadir-changed:

# The version's one place: VERSION, compiled into lib/opt.c only.
$(O)/lib/opt.o: ALLCFLAGS += -DPSKD_VERSION=\"$(VERSION)\"
$(O)/lib/opt.o: Makefile

-include $(shell find $(O) -name '*.d' 2>/dev/null)

# ---- tests ----------------------------------------------------------------

# The README's test command: installs what is missing, builds, runs it all.
check: deps
	@$(MAKE) --no-print-directory check-run

check-run: all $(UNITS) $(REPLAYS)
	@PSKD_BIN=$(CURDIR)/$(B) PSKD_BUILD=$(CURDIR)/$(O) sh tests/run

deps:
	@sh tests/deps/install

# README command 1: build the example dataset from the bundled corpus.
demo: deps all
	@$(MAKE) --no-print-directory -C examples all
	@$(MAKE) --no-print-directory -s -C examples summary

# The whole suite again under a sanitizer, in its own build folder.  Leak
# reports are off: a program that exits on an error frees nothing, on purpose.
SANFLAGS = -O1 -g -fno-omit-frame-pointer
asan: deps
	@ASAN_OPTIONS=detect_leaks=0 \
	    $(MAKE) --no-print-directory O=build/asan B=build/asan/bin \
	    CFLAGS="$(SANFLAGS) -fsanitize=address" \
	    LDFLAGS="-fsanitize=address" check-run
# halt_on_error: a report (a NULL memcpy of 0 bytes too) fails the suite.
ubsan: deps
	@UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	    $(MAKE) --no-print-directory O=build/ubsan B=build/ubsan/bin \
	    CFLAGS="$(SANFLAGS) -fsanitize=undefined -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=undefined" check-run

# Coverage-guided fuzzing with libFuzzer (clang); FUZZTIME seconds each.
# Leak reports are off, as in make asan: a loader that fails unwinds with
# longjmp and leaves what it had read to the exit that follows.
FUZZTIME = 60
fuzz: deps
	@mkdir -p build/fuzz
	@for f in $(FUZZERS); do \
	    clang $(PSKD_CPPFLAGS) -DPSKD_VERSION=\"$(VERSION)\" -g -O1 \
	        -fsanitize=fuzzer,address,undefined \
	        -o build/fuzz/fuzz-$$f tests/fuzz/fuzz-$$f.c \
	        $(LIBSRC) $(FAMSRC) $(LIBS) || exit 1; \
	    mkdir -p build/fuzz/corpus-$$f; \
	    echo "fuzz-$$f: $(FUZZTIME) s"; \
	    ASAN_OPTIONS=detect_leaks=0 \
	        build/fuzz/fuzz-$$f -max_total_time=$(FUZZTIME) \
	        build/fuzz/corpus-$$f tests/fuzz/corpus/$$f || exit 1; \
	done

bench: all
	@PSKD_BIN=$(CURDIR)/$(B) BENCH="$(BENCH)" sh tests/bench/run

# Both formatters a reader may have: mandoc, and groff (man -l on most
# systems); any warning fails.
lint:
	mandoc -Tlint -Wwarning $(MANPAGES)
	@for m in $(MANPAGES); do \
	    w=$$(groff -k -Tutf8 -mandoc -ww -z $$m 2>&1); \
	    [ -z "$$w" ] || { echo "$$w"; exit 1; }; done

# ---- install ----------------------------------------------------------------

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(PYDIR)
	for p in $(PROGS); do cp $$p $(DESTDIR)$(BINDIR)/; done
	for m in $(MANPAGES); do \
	    s=$${m##*.}; mkdir -p $(DESTDIR)$(MANDIR)/man$$s; \
	    cp $$m $(DESTDIR)$(MANDIR)/man$$s/; done
	cp src/python/pskd.py src/python/_pskd_*.py $(DESTDIR)$(PYDIR)/
	mkdir -p $(DESTDIR)$(DATADIR) && cp share/pskd.mk $(DESTDIR)$(DATADIR)/
	if [ -d vocab ]; then mkdir -p $(DESTDIR)$(DATADIR) && \
	    cp vocab/*.tiktoken $(DESTDIR)$(DATADIR)/ 2>/dev/null; true; fi

uninstall:
	for p in $(PROGS); do rm -f $(DESTDIR)$(BINDIR)/$${p##*/}; done
	for m in $(MANPAGES); do \
	    rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done
	rm -f $(DESTDIR)$(PYDIR)/pskd.py $(DESTDIR)$(PYDIR)/_pskd_*.py
	rm -f $(DESTDIR)$(DATADIR)/pskd.mk
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf bin build examples/data

.PHONY: all check check-run deps demo asan ubsan fuzz bench lint install \
	uninstall clean
