/*
 * lshchunk.c - the entries of the documents added in this run, per band in
 * chunks in memory (lshindex.h), and the memory they live in.
 */
#define _GNU_SOURCE		/* mremap(2) */
#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lshint.h"

/* ---- memory that grows in place ------------------------------------------ */

/*
 * The index's large arrays are anonymous mappings: pages count in memory
 * only once written, so an array reserves twice what it needs and grows
 * into that without a system call; past it, mremap(2) moves the pages
 * rather than copying them.  No freed block stays behind in the heap, so
 * the memory a run holds is the memory its index uses.  Returns the
 * mapping, at least need bytes, its size in *res.
 */
#ifdef __SANITIZE_ADDRESS__
/* From malloc, so that ASan sees any overrun; an eighth more at a time. */
void *
lsh_map_grow(void *p, size_t *res, size_t need)
{
	if (need <= *res)
		return p;
	if (need < *res + *res / 8)
		need = *res + *res / 8;
	*res = need;
	return pskd_xrealloc(p, need);
}

void
lsh_map_free(void *p, size_t res)
{
	(void)res;
	free(p);
}
#else
#define MAP_MIN	(1u << 20)	/* reserved at first */

void *
lsh_map_grow(void *p, size_t *res, size_t need)
{
	static size_t page;
	size_t c;
	void *q;

	if (need <= *res)
		return p;
	if (page == 0)
		page = (size_t)sysconf(_SC_PAGESIZE);
	c = *res > need / 2 ? 2 * *res : need;
	if (c < MAP_MIN)
		c = MAP_MIN;
	c = (c + page - 1) / page * page;
#ifdef MREMAP_MAYMOVE
	q = p == NULL ? mmap(NULL, c, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) :
	    mremap(p, *res, c, MREMAP_MAYMOVE);
#else
	q = mmap(NULL, c, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (q != MAP_FAILED && p != NULL) {
		memcpy(q, p, *res);
		munmap(p, *res);
	}
#endif
	if (q == MAP_FAILED)
		pskd_errx(PSKD_EXIT_DATA, "out of memory (%zu bytes)", c);
#ifdef MADV_NOHUGEPAGE
	/* A huge page would count 2 MiB in memory for the first byte used. */
	(void)madvise(q, c, MADV_NOHUGEPAGE);
#endif
	*res = c;
	return q;
}

void
lsh_map_free(void *p, size_t res)
{
	if (p != NULL)
		munmap(p, res);
}
#endif /* __SANITIZE_ADDRESS__ */

/*
 * Fault in the pages of a growing map a step ahead of their use, in one
 * call rather than a trap each (pskd_prefault()); *in bytes are in.  The
 * step is small so that the 2b + 3 arrays hold little unused memory, and
 * large enough that a band's many small growths make few calls (3,300
 * calls for the bench's 20,000 documents when each growth made one: as
 * dear as the faults they saved).
 */
#define AHEAD	(16u << 10)

void
lsh_ahead(void *p, size_t *in, size_t used, size_t res)
{
	size_t to;

	if (used <= *in)
		return;
	to = used + AHEAD;	/* pskd_prefault() takes whole pages */
	if (to > res)
		to = res;
	pskd_prefault((unsigned char *)p + *in, to - *in);
	*in = to;
}

/* ---- this run's documents: chunks in memory ------------------------------ */

/*
 * A band's chunks live back to back in one array, each with a little room
 * after it: no allocation per chunk, and no more than a few percent unused.
 * A full chunk takes room from the nearest chunk after it that has some,
 * moving the chunks between; when none is near, the room is spread evenly
 * again, the array grown by a sixteenth when little is left.
 */
#define REACH	8	/* chunks a full one may move to find room */

void
lsh_bands_free(struct pskd_lsh_index *ix)
{
	uint32_t j;

	if (ix->band != NULL)
		for (j = 0; j < ix->b; j++) {
			lsh_map_free(ix->band[j].e, ix->band[j].res);
			free(ix->band[j].chunk);
		}
	free(ix->band);
	ix->band = NULL;
}

void
lsh_bands_init(struct pskd_lsh_index *ix)
{
	uint32_t j;

	code_init(&ix->mc, 0);
	ix->band = pskd_xcalloc(ix->b, sizeof(*ix->band));
	for (j = 0; j < ix->b; j++)
		ix->band[j].chunk = pskd_xcalloc(2, sizeof(*ix->band[j].chunk));
}

/*
 * Spread the room evenly over the chunks of band bd (n entries), in an
 * array of cap entries (at least its present size).  Chunks that move left
 * move first, left to right, then those that move right, right to left:
 * neither overwrites a chunk not yet moved.
 */
static void
band_spread(struct pskd_lsh_band *bd, size_t nch, size_t n, size_t cap)
{
	struct pskd_lsh_chunk *ck = bd->chunk;
	uint32_t *to = pskd_xreallocarray(NULL, nch, sizeof(*to));
	size_t i, room = cap - n, at = 0;

	if (cap > bd->cap) {
		bd->e = lsh_map_grow(bd->e, &bd->res, cap * sizeof(*bd->e));
		lsh_ahead(bd->e, &bd->in, cap * sizeof(*bd->e), bd->res);
		bd->cap = cap;
	}
	for (i = 0; i < nch; i++) {
		to[i] = (uint32_t)at;
		at += ck[i].len + room * (i + 1) / nch - room * i / nch;
	}
	for (i = 0; i < nch; i++)
		if (to[i] <= ck[i].start) {
			memmove(bd->e + to[i], bd->e + ck[i].start,
			    ck[i].len * sizeof(*bd->e));
			ck[i].start = to[i];
		}
	for (i = nch; i-- > 0; )
		if (to[i] > ck[i].start) {
			memmove(bd->e + to[i], bd->e + ck[i].start,
			    ck[i].len * sizeof(*bd->e));
			ck[i].start = to[i];
		}
	ck[nch].start = (uint32_t)cap;
	free(to);
}

/*
 * Room in full chunk i of band bd (n entries): half the room of the nearest
 * chunk after it that has some, so one move serves several inserts.
 */
static void
band_room(struct pskd_lsh_band *bd, size_t nch, size_t i, size_t n)
{
	struct pskd_lsh_chunk *ck = bd->chunk;
	size_t k, m, from, g;

	for (k = i + 1; k < nch && k <= i + REACH; k++)
		if (ck[k].start + ck[k].len < ck[k + 1].start)
			break;
	if (k < nch && k <= i + REACH) {
		g = (ck[k + 1].start - ck[k].start - ck[k].len + 1) / 2;
		from = ck[i + 1].start;
		memmove(bd->e + from + g, bd->e + from,
		    (ck[k].start + ck[k].len - from) * sizeof(*bd->e));
		for (m = i + 1; m <= k; m++)
			ck[m].start += (uint32_t)g;
		return;
	}
	if (bd->cap - n >= 2 * nch)
		band_spread(bd, nch, n, bd->cap);
	else
		band_spread(bd, nch, n, n + n / 16 + 2 * nch);
}

/*
 * Recode band bd's entries from code oc to nc; when nc has twice the
 * chunks, each splits in two where its entries' next key bit turns to 1.
 * The known key bits never grow, so the entries alone say where they go,
 * and they keep their order: nothing moves but the chunk bounds.
 */
static void
band_recode(struct pskd_lsh_band *bd, const struct pskd_lsh_code *oc,
    const struct pskd_lsh_code *nc, size_t n)
{
	size_t nch = (size_t)1 << oc->c, i, x, low;
	struct pskd_lsh_chunk *ck, *old = bd->chunk;
	uint32_t hi, shift = oc->known - nc->known, *e;

	ck = pskd_xcalloc(((size_t)1 << nc->c) + 1, sizeof(*ck));
	for (i = 0; i < nch; i++) {
		e = bd->e + old[i].start;
		for (x = low = 0; x < old[i].len; x++) {
			hi = entry_hi(e[x], (uint32_t)i, oc) >> shift;
			low += (hi_chunk(hi, nc) & 1) == 0;
			e[x] = entry(hi, e[x] & low_mask(oc->d), nc);
		}
		if (nc->c == oc->c) {
			ck[i] = old[i];
			continue;
		}
		ck[2 * i].start = old[i].start;
		ck[2 * i].len = (uint32_t)low;
		ck[2 * i + 1].start = old[i].start + (uint32_t)low;
		ck[2 * i + 1].len = old[i].len - (uint32_t)low;
	}
	ck[(size_t)1 << nc->c].start = (uint32_t)bd->cap;
	free(old);
	bd->chunk = ck;
	if (nc->c != oc->c)
		band_spread(bd, (size_t)1 << nc->c, n, bd->cap);
}

/* Room for documents numbered up to 2^d - 1 (d one more than now). */
void
lsh_bands_regrow(struct pskd_lsh_index *ix, uint32_t d)
{
	struct pskd_lsh_code nc;
	uint32_t j;

	code_init(&nc, d);
	for (j = 0; j < ix->b; j++)
		band_recode(&ix->band[j], &ix->mc, &nc, ix->ndocs - ix->nbase);
	ix->mc = nc;
}

void
lsh_mem_insert(struct pskd_lsh_index *ix, uint32_t band, uint32_t key,
    uint32_t doc)
{
	const struct pskd_lsh_code *pc = &ix->mc;
	struct pskd_lsh_band *bd = &ix->band[band];
	const struct pskd_lsh_probe *pr = &ix->probe[band];
	uint32_t hi = key_hi(key, pc), ch = hi_chunk(hi, pc), *e;
	uint64_t after = ((uint64_t)(hi & low_mask(pc->f)) + 1) << pc->d;
	size_t i, len;

	if (bd->chunk[ch].start + bd->chunk[ch].len == bd->chunk[ch + 1].start)
		band_room(bd, (size_t)1 << pc->c, ch, doc);
	e = bd->e + bd->chunk[ch].start;
	len = bd->chunk[ch].len;
	/* Where the lookup of this key just ended, if nothing moved since. */
	if (ix->probed == ix->ndocs + 1 && pr->key == key)
		i = pr->at;
	else
		i = lower_mem(e, len, after);
	memmove(e + i + 1, e + i, (len - i) * sizeof(*e));
	e[i] = entry(hi, doc, pc);
	bd->chunk[ch].len++;
}
