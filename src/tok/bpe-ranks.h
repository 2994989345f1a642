/*
 * bpe-ranks.h - byte-level BPE vocabularies in tiktoken's format: one line
 * per token, "BASE64 RANK" (the token's bytes in standard base64 with
 * padding, one space, the rank in decimal), e.g. "IGhlbGxv 24748".  Ranks
 * need not be in order nor contiguous; tokens and ranks are unique; the
 * rank is the token id.  Empty lines are skipped.
 */
#ifndef PSKD_BPE_RANKS_H
#define PSKD_BPE_RANKS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pskd.h"

#define PSKD_RANK_NONE	UINT32_MAX
#define PSKD_RANK_MAX	(1u << 24)	/* ranks above are refused */
#define PSKD_RANK_SHORT	11		/* tokens kept inline in the table */

/*
 * The lookup table: open addressing, linear probing.  A token of up to
 * PSKD_RANK_SHORT bytes is its own key (k0 its first 8 bytes, k1 the next
 * 3 and its length in the top byte), so a lookup touches one slot; a
 * longer one has k0 = its XXH3 hash, k1 = 0xff << 24, and is compared
 * against the bytes.  k1 == 0: an empty slot.
 */
struct pskd_rslot {
	uint64_t	 k0;
	uint32_t	 k1;
	uint32_t	 rank;
};

struct pskd_ranks {
	uint32_t	 n;		/* one past the highest rank */
	uint32_t	 ntokens;	/* ranks in use */
	unsigned char	*bytes;		/* every token's bytes, back to back */
	uint32_t	*off;		/* rank -> offset into bytes */
	uint32_t	*len;		/* rank -> length; 0: no such rank */
	struct pskd_rslot *slot;
	size_t		 mask;
	size_t		 maxlen;	/* the longest token */
};

/*
 * Parse a whole ranks file from p[0..n).  On error returns -1 with
 * "LINE: message" (or a message without a line) in err; the caller adds
 * the file name.
 */
int	pskd_ranks_parse(struct pskd_ranks *r, const unsigned char *p, size_t n,
	    char *err, size_t errsize);
/*
 * The same from tokens the caller has: token i is bytes[off[i] ..
 * off[i] + len[i]) with rank[i]; bytes (from malloc) becomes r's.  -1 with
 * a message in err for a rank or token given twice (r then freed).
 */
int	pskd_ranks_build(struct pskd_ranks *r, unsigned char *bytes,
	    const uint32_t *off, const uint32_t *len, const uint32_t *rank,
	    size_t nt, char *err, size_t errsize);
void	pskd_ranks_free(struct pskd_ranks *r);
/* The rank of the token with bytes p[0..n), or PSKD_RANK_NONE. */
uint32_t pskd_ranks_find(const struct pskd_ranks *r, const void *p, size_t n);
/*
 * The same for n > PSKD_RANK_SHORT, given xxh = XXH3_64bits(p, n) (a
 * caller that hashed the bytes already need not hash them twice).
 */
uint32_t pskd_ranks_find_long(const struct pskd_ranks *r, const void *p,
	    size_t n, uint64_t xxh);
/* XXH3_64bits(p, n): the key of a token longer than PSKD_RANK_SHORT. */
uint64_t pskd_ranks_xxh(const void *p, size_t n);
/* Append the line "BASE64 RANK\n" for a token to b (for writers). */
void	pskd_ranks_line(struct pskd_buf *b, const void *p, size_t n,
	    uint32_t rank);

/*
 * Zeroed memory for a large table looked up at random: whole 2 MiB pages
 * asked for as transparent huge pages (fewer TLB misses and page faults).
 */
void	*pskd_huge_alloc(size_t n);
void	 pskd_huge_free(void *p, size_t n);

/* ---- inline: the short-key lookup the encoder's inner loop uses ----- */

static inline uint64_t
pskd_load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);	/* little-endian hosts: the first byte lowest */
	return v;
}

static inline uint32_t
pskd_load32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The inline key of p[0..n), 1 <= n <= PSKD_RANK_SHORT. */
static inline void
pskd_ranks_key(const unsigned char *p, size_t n, uint64_t *k0, uint32_t *k1)
{
	uint64_t lo;
	uint32_t hi = 0;

	if (n >= 8) {
		lo = pskd_load64(p);
		if (n > 8)
			hi = p[8];
		if (n > 9)
			hi |= (uint32_t)p[9] << 8;
		if (n > 10)
			hi |= (uint32_t)p[10] << 16;
	} else if (n >= 4) {
		lo = pskd_load32(p) |
		    (uint64_t)pskd_load32(p + n - 4) << ((n - 4) * 8);
	} else {
		lo = p[0] | (uint64_t)p[n >> 1] << ((n >> 1) * 8) |
		    (uint64_t)p[n - 1] << ((n - 1) * 8);
	}
	*k0 = lo;
	*k1 = hi | (uint32_t)n << 24;
}

/*
 * pskd_ranks_key without its branches on the length (which the lengths
 * of text's pieces mispredict), for 1 <= n <= PSKD_RANK_SHORT with 16
 * bytes readable at p: the bytes zero-extended, the length on top.
 */
static inline void
pskd_ranks_key16(const unsigned char *p, size_t n, uint64_t *k0,
    uint32_t *k1)
{
	uint64_t lo = pskd_load64(p), hi = pskd_load64(p + 8);
	size_t nlo = n < 8 ? n : 8, nhi = n - nlo;

	*k0 = lo & (~0ULL >> (64 - 8 * nlo));
	*k1 = (uint32_t)(hi & ((1ULL << (8 * nhi)) - 1)) | (uint32_t)n << 24;
}

static inline uint64_t
pskd_ranks_keyhash(uint64_t k0, uint32_t k1)
{
	uint64_t h = (k0 ^ (uint64_t)k1 * 0x9e3779b97f4a7c15ULL) *
	    0xff51afd7ed558ccdULL;

	return h ^ h >> 29;
}

/*
 * The slot of a short token by its inline key (h its keyhash), or
 * SIZE_MAX: for a caller that keeps more beside each slot.
 */
static inline size_t
pskd_ranks_slot_key(const struct pskd_ranks *r, uint64_t k0, uint32_t k1,
    uint64_t h)
{
	const struct pskd_rslot *s;
	size_t i;

	for (i = (size_t)h & r->mask;; i = (i + 1) & r->mask) {
		s = &r->slot[i];
		if (s->k0 == k0 && s->k1 == k1)
			return i;
		if (s->k1 == 0)
			return SIZE_MAX;
	}
}

/* The rank of a short token by its inline key (h its keyhash). */
static inline uint32_t
pskd_ranks_find_key(const struct pskd_ranks *r, uint64_t k0, uint32_t k1,
    uint64_t h)
{
	size_t i = pskd_ranks_slot_key(r, k0, k1, h);

	return i == SIZE_MAX ? PSKD_RANK_NONE : r->slot[i].rank;
}

/*
 * The lookup in two steps, so that a caller can prefetch the slot
 * (r->slot[h & r->mask]) of many tokens before it looks them up: the key
 * of p[0..n) and its hash, then the rank (inline: a short token's key
 * costs less than the call).
 */
static inline uint64_t
pskd_ranks_keyof(const void *p, size_t n, uint64_t *k0, uint32_t *k1)
{
	if (n <= PSKD_RANK_SHORT)
		pskd_ranks_key(p, n, k0, k1);
	else {
		*k0 = pskd_ranks_xxh(p, n);
		*k1 = 0xffu << 24;
	}
	return pskd_ranks_keyhash(*k0, *k1);
}

static inline uint32_t
pskd_ranks_find_keyed(const struct pskd_ranks *r, const void *p, size_t n,
    uint64_t k0, uint32_t k1, uint64_t h)
{
	if (n <= PSKD_RANK_SHORT)
		return pskd_ranks_find_key(r, k0, k1, h);
	return pskd_ranks_find_long(r, p, n, k0);
}

#endif
