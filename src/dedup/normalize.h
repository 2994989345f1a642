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
 * key its bytes little-endian; 0 is an empty slot.
 */
struct pskd_norm_memo {
	uint32_t	key;
	unsigned char	len;
	unsigned char	out[11];
};
#define PSKD_NORM_MEMO_BITS	12

struct pskd_norm {
	unsigned	flags;		/* PSKD_NORM_* */
	int		avx2;		/* the processor has AVX2 */
	int		sse2;		/* and SSE2, unless PSKD_SIMD=0 */
	unsigned char	ascii[128];	/* the map of ASCII bytes */
	uint16_t	word[128];	/* the byte (' ' for a space), 0x100 if not */
	uint32_t	spos[256];	/* the first 4 set bits of a byte, 1 a byte */
	unsigned char	scount[256];	/* how many of them */
	/*
	 * A cache of utf8proc's answers, filled as text comes: it only
	 * saves work, so pskd_norm_text() fills it through a const nm.
	 */
	struct pskd_norm_memo *memo;
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

#endif /* PSKD_NORMALIZE_H */
