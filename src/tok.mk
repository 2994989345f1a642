# tok.mk - generated tables of pskd-tok's pre-tokenizers (src/lib/pretok.c):
# the Unicode classes of every code point, from the installed utf8proc.
GENHDR += build/gen/ucd.h

# Included before the Makefile's own rules: keep `all` the default goal.
all:

build/gen/ucd.h: src/gen/ucd.c
	@mkdir -p build/gen
	$(CC) -O2 -o build/gen/ucd src/gen/ucd.c -lutf8proc
	build/gen/ucd > build/gen/ucd.h.tmp
	mv build/gen/ucd.h.tmp build/gen/ucd.h

# libFuzzer builds compile src/lib/*.c directly.
fuzz: build/gen/ucd.h
