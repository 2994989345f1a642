/*
 * ranks.h - byte-level BPE vocabularies in tiktoken's format: one line per
 * token, "BASE64 RANK" (the token's bytes in standard base64 with padding,
 * one space, the rank in decimal), e.g. "IGhlbGxv 24748".  Ranks need not
 * be in order nor contiguous; tokens and ranks are unique; the rank is the
 * token id.
 */
#ifndef PSKD_RANKS_H
#define PSKD_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

#define PSKD_RANK_NONE	UINT32_MAX
#define PSKD_RANK_MAX	(1u << 24)	/* ranks above are refused */

struct pskd_ranks {
	uint32_t	 n;		/* one past the highest rank */
	uint32_t	 ntokens;	/* ranks in use */
	unsigned char	*bytes;		/* every token's bytes, back to back */
	uint32_t	*off;		/* rank -> offset into bytes */
	uint32_t	*len;		/* rank -> length; 0: no such rank */
	uint64_t	*slot;		/* hash table: hash << 32 | rank + 1 */
	size_t		 mask;
	size_t		 maxlen;	/* the longest token */
};

/*
 * Parse a whole ranks file from p[0..n).  On error returns -1 with
 * "LINE: message" in err (the caller adds the file name).
 */
int	pskd_ranks_parse(struct pskd_ranks *r, const unsigned char *p, size_t n,
	    char *err, size_t errsize);
/* The same from a file; an I/O error is "strerror" without a line. */
int	pskd_ranks_load(struct pskd_ranks *r, const char *path, char *err,
	    size_t errsize);
void	pskd_ranks_free(struct pskd_ranks *r);
/* The rank of the token with bytes p[0..n), or PSKD_RANK_NONE. */
uint32_t pskd_ranks_find(const struct pskd_ranks *r, const void *p, size_t n);
/* The same with h = pskd_ranks_hash(p, n) computed by the caller. */
uint32_t pskd_ranks_findh(const struct pskd_ranks *r, const void *p, size_t n,
	    uint64_t h);
uint64_t pskd_ranks_hash(const void *p, size_t n);
/* Append the line "BASE64 RANK\n" for a token to b (for writers). */
void	pskd_ranks_line(struct pskd_buf *b, const void *p, size_t n,
	    uint32_t rank);

#endif
