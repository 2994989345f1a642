/*
 * normalize.h - the text normalisation of pskd-shingle, step by step
 * switchable (PSKD_NORM_* in frame.h); documented in pskd-shingle(1).
 */
#ifndef PSKD_NORMALIZE_H
#define PSKD_NORMALIZE_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

/*
 * The normalised bytes of a code point of 2 to 4 bytes (' ' for a space),
 * key its bytes little-endian; 0 is an empty slot.  len has 0x80 set when
 * the bytes hold a space.
 */
struct pskd_norm_memo {
	uint32_t	key;
	unsigned char	len;
	unsigned char	out[11];
};
#define PSKD_NORM_MEMO_BITS	12

/*
 * The tables of the AVX2 level, in the memo's allocation: for a group of 8
 * ASCII bytes, by its space mask and whether a space comes before it
 * (bit 8), the shuffle that packs the bytes a space run keeps and the
 * offsets of the kept spaces among them; and the normalised bytes of each
 * code point of two bytes (U+0080..U+07FF), as length, kind (0 bytes
 * without a space, 1 one space, 2 anything else: ask utf8proc) and up to
 * 6 bytes, in that order from the low end.
 */
struct pskd_norm_tab {
	uint64_t	ctrl[512];
	uint32_t	sepat[512];
	uint64_t	two[0x800];
};

/*
 * Not a step: a line break stays '\n', neither a space nor collapsed with
 * the spaces beside it, so that the lines of a text normalised whole are
 * its lines normalised one by one, each with at most one space at either
 * end to take off (pskd-exact's lines).
 */
#define PSKD_NORM_LINES		0x100

struct pskd_norm {
	unsigned	flags;		/* PSKD_NORM_*, PSKD_NORM_LINES */
	int		avx2;		/* AVX2 code, as pskd_simd() allows */
	int		sse2;		/* SSE2 code, likewise */
	unsigned char	ascii[128];	/* the map of ASCII bytes */
	uint16_t	word[128];	/* the byte (' ' for a space), 0x100 if not */
	uint32_t	spos[256];	/* the first 4 set bits of a byte, 1 a byte */
	unsigned char	scount[256];	/* how many of them */
	/*
	 * A cache of utf8proc's answers, filled as text comes: it only
	 * saves work, so pskd_norm_text() fills it through a const nm.
	 */
	struct pskd_norm_memo *memo;
	struct pskd_norm_tab *tab;	/* after the memo: freeing it frees both */
	/*
	 * The most bytes pskd_norm_text() may write, text and separators
	 * (0: no limit); it stops soon after.
	 */
	size_t		 max;
};

void	pskd_norm_init(struct pskd_norm *nm, unsigned flags);
/*
 * Append the normalised form of the well-formed UTF-8 text s[0..n) to out.
 * Whitespace and control characters become ' '; with PSKD_NORM_SPACE (or
 * words set) runs of it become one space and none leads or trails.  With
 * collapsing on and seps not NULL, the offset (from where the text starts
 * in out) of each space written between two words is appended to seps as
 * a host uint32_t.  0, or -1 when the normalised text and separators
 * pass nm->max (out and seps then hold only the start of them).
 */
int	pskd_norm_text(const struct pskd_norm *nm, struct pskd_buf *out,
	    const unsigned char *s, size_t n, int words, struct pskd_buf *seps);
/*
 * The same, when the slack bytes after the text, s[n..n + slack), may be
 * read (they are not normalised): a short text is then read in place.
 */
int	pskd_norm_text_in(const struct pskd_norm *nm, struct pskd_buf *out,
	    const unsigned char *s, size_t n, size_t slack, int words,
	    struct pskd_buf *seps);

#endif /* PSKD_NORMALIZE_H */
