/*
 * shingle.h - the shingles of a document's text (pskd-shingle(1)): its
 * word or character n-grams after normalisation, hashed with XXH3-64 and
 * the seed PSKD_SHINGLE_SEED, as a set of distinct hashes.
 */
#ifndef PSKD_SHINGLE_H
#define PSKD_SHINGLE_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "frame.h"
#include "normalize.h"

#define PSKD_SHINGLE_SEED	0	/* the XXH3-64 seed, in every header */

/* The parameters and the buffers kept from one document to the next. */
struct pskd_shingler {
	uint32_t	 unit;		/* enum pskd_shingle_unit */
	uint32_t	 n;		/* words or characters an n-gram */
	struct pskd_norm nm;
	int		 avx512;	/* the dealing loop may use AVX-512 */
	int		 avx2;		/* or AVX2 */
	/* The most a document may take (0: no limit), what the last did. */
	size_t		 budget, need;
	struct pskd_buf	 ntext;		/* the normalised text */
	struct pskd_buf	 seps;		/* offsets of the spaces between words */
	size_t		 nb;		/* its words or code points */
	size_t		*pos;		/* a block's code point starts (-c) */
	uint64_t	*hv;		/* the hashes */
	size_t		 hvcap, nh;
	uint64_t	*spans;		/* a block's n-grams by length class */
	uint32_t	 cnt[2][256];	/* the hashes' top two bytes, counted */
};

void	pskd_shingler_init(struct pskd_shingler *sh, uint32_t unit,
	    uint32_t n, unsigned norm);
/*
 * Normalise text[0..len) and hash its n-grams; returns how many (at least
 * as many as the distinct hashes pskd_shingler_put() writes).  What that
 * takes, sh->need, is the normalised text, 4 bytes a word (with words)
 * and 16 bytes an n-gram (its hash, and its room in the frame); when it
 * would pass sh->budget nothing is hashed and the return is SIZE_MAX
 * (sh->need budget + 1: the normalised text alone passed it).
 */
size_t	pskd_shingler_hash(struct pskd_shingler *sh, const unsigned char *text,
	    size_t len);
/*
 * The distinct hashes of the last pskd_shingler_hash(), ascending, as
 * 64-bit little-endian values to d, which has room for as many as it
 * returned; returns how many.
 */
size_t	pskd_shingler_put(struct pskd_shingler *sh, unsigned char *d);
/* After a document: free what a large one grew (past PSKD_KEEP_GROWN). */
void	pskd_shingler_release(struct pskd_shingler *sh);
void	pskd_shingler_free(struct pskd_shingler *sh);

#endif /* PSKD_SHINGLE_H */
