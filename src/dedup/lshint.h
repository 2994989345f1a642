/*
 * lshint.h - what the files of the LSH index share and nobody else uses:
 * the 32-bit entry code, the searches in a chunk, and the functions one of
 * them defines for the others.  lshindex.c opens, looks up, adds and
 * closes; lshchunk.c keeps this run's entries in memory; lshmanifest.c
 * reads and writes its lines of the manifest; lshsave.c writes segments
 * and the pending run.
 */
#ifndef PSKD_LSHINT_H
#define PSKD_LSHINT_H

#include <stddef.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "lshindex.h"

#define CHUNK_SHIFT	7	/* a chunk holds up to about 2^7 entries */
#define MAX_MEMDOCS	(1u << 31)	/* documents in memory: d <= 31 */
#define IDBLOCK		12	/* 2^12 ids of at most 2^16 bytes: < 2^32 */

static inline uint32_t
band_key(const unsigned char *sketch, uint32_t band, uint32_t r)
{
	return (uint32_t)(XXH3_64bits_withSeed(sketch + (size_t)band * r, r,
	    band) >> 32);
}

/* ---- the entry code ---------------------------------------------------- */

static inline void
code_init(struct pskd_lsh_code *pc, uint32_t d)
{
	pc->d = d;
	pc->f = 32 - d;
	pc->c = d > CHUNK_SHIFT ? d - CHUNK_SHIFT : 0;
	pc->known = pc->c + pc->f;
}

/* The fewest bits that number documents 0 .. n-1. */
static inline uint32_t
doc_bits(uint64_t n)
{
	uint32_t d = 0;

	while (((uint64_t)1 << d) < n)
		d++;
	return d;
}

static inline uint32_t
low_mask(uint32_t bits)
{
	return (uint32_t)(((uint64_t)1 << bits) - 1);
}

/* The top bits of a key that a partition keeps. */
static inline uint32_t
key_hi(uint32_t key, const struct pskd_lsh_code *pc)
{
	return (uint32_t)((uint64_t)key >> (32 - pc->known));
}

static inline uint32_t
hi_chunk(uint32_t hi, const struct pskd_lsh_code *pc)
{
	return (uint32_t)((uint64_t)hi >> pc->f);
}

static inline uint32_t
entry(uint32_t hi, uint32_t doc, const struct pskd_lsh_code *pc)
{
	return (uint32_t)((uint64_t)(hi & low_mask(pc->f)) << pc->d | doc);
}

/* An entry's fingerprint, and its known key bits given its chunk. */
static inline uint32_t
entry_fp(uint32_t e, const struct pskd_lsh_code *pc)
{
	return (uint32_t)((uint64_t)e >> pc->d);
}

static inline uint32_t
entry_hi(uint32_t e, uint32_t chunk, const struct pskd_lsh_code *pc)
{
	return (uint32_t)((uint64_t)chunk << pc->f | entry_fp(e, pc));
}

/*
 * The first of n ascending entries that is >= v (v may be 2^32): bisection,
 * and a search that starts from a guess and gallops away from it.  A
 * chunk's fingerprints are uniform, so the guess fp * n / 2^f lands within
 * a few entries, in the cache line already fetched.
 */
#define LOWER(name, type, at, add)					\
static inline size_t							\
name(type p, size_t n, uint64_t v)					\
{									\
	size_t lo = 0, half;						\
									\
	while (n > 0) {							\
		half = n / 2;						\
		if (at(p, lo + half) < v) {				\
			lo += half + 1;					\
			n -= half + 1;					\
		} else							\
			n = half;					\
	}								\
	return lo;							\
}									\
									\
static inline size_t							\
name##_from(type p, size_t n, uint64_t v, size_t g)			\
{									\
	size_t lo, hi, step = 1;					\
									\
	if (n == 0)							\
		return 0;						\
	if (at(p, g) < v) {						\
		lo = hi = g + 1;					\
		while (hi < n && at(p, hi) < v) {			\
			lo = hi + 1;					\
			hi += step;					\
			step *= 2;					\
		}							\
		if (hi > n)						\
			hi = n;						\
	} else {							\
		lo = hi = g;						\
		while (lo > 0 && at(p, lo - 1) >= v) {			\
			hi = lo - 1;					\
			lo = lo > step ? lo - step : 0;			\
			step *= 2;					\
		}							\
	}								\
	return lo + name(add(p, lo), hi - lo, v);			\
}

static inline uint32_t
at_mem(const uint32_t *e, size_t i)
{
	return e[i];
}

static inline const uint32_t *
add_mem(const uint32_t *e, size_t i)
{
	return e + i;
}

/* A segment's entries, as mapped: 32-bit little-endian. */
struct le32s {
	const unsigned char *p;
};

static inline struct le32s
le_add(struct le32s a, size_t i)
{
	a.p += 4 * i;
	return a;
}

static inline uint32_t
at_le(struct le32s a, size_t i)
{
	return pskd_get_le32(a.p + 4 * i);
}

LOWER(lower_mem, const uint32_t *, at_mem, add_mem)
LOWER(lower_le, struct le32s, at_le, le_add)

/* Where in n entries a fingerprint fp of f bits should be. */
static inline size_t
guess(uint32_t fp, size_t n, const struct pskd_lsh_code *pc)
{
	return (size_t)(((uint64_t)fp * n) >> pc->f);
}

/* ---- lshchunk.c: memory that grows in place; this run's chunks ---------- */

void	*lsh_map_grow(void *p, size_t *res, size_t need);
void	 lsh_map_free(void *p, size_t res);
void	 lsh_ahead(void *p, size_t *in, size_t used, size_t res);
void	 lsh_bands_init(struct pskd_lsh_index *ix);
void	 lsh_bands_free(struct pskd_lsh_index *ix);
void	 lsh_bands_regrow(struct pskd_lsh_index *ix, uint32_t d);
void	 lsh_mem_insert(struct pskd_lsh_index *ix, uint32_t band, uint32_t key,
	    uint32_t doc);

/* ---- lshindex.c: files ---------------------------------------------------- */

char	*lsh_path(const struct pskd_lsh_index *ix, const char *name);
void	 lsh_seg_name(char *name, size_t size, uint64_t id);
_Noreturn void lsh_damaged(const struct pskd_lsh_index *ix,
	    const struct pskd_lsh_seg *s);
void	 lsh_unmap(struct pskd_map *m);
size_t	 lsh_seg_section(const struct pskd_lsh_seg *s);
int	 lsh_map_base(struct pskd_lsh_index *ix, char *err, size_t errsize);
uint64_t lsh_new_off(const struct pskd_lsh_index *ix, uint32_t i);

/* ---- lshmanifest.c ---------------------------------------------------------- */

void	 lsh_seg_add(struct pskd_lsh_index *ix, uint64_t id, uint32_t first,
	    uint32_t n);
/*
 * The index's lines of the committed manifest (pskd_ixdir_open()'s body),
 * made with -b b -r r (b 0: whatever they were).  0, or -1 with err.
 */
int	 lsh_manifest_read(struct pskd_lsh_index *ix, uint32_t b, uint32_t r,
	    struct pskd_buf *body, char *err, size_t errsize);
/* The index's lines of its manifest as it is now (pskd_ixdir_pend()). */
void	 lsh_manifest_body(struct pskd_writer *w, void *arg);

/* ---- lshsave.c -------------------------------------------------------------- */

/* Remove the files of dir that the manifest does not name. */
void	 lsh_remove_unlisted(struct pskd_lsh_index *ix);

#endif /* PSKD_LSHINT_H */
