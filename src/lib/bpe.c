/*
 * bpe.c - byte-level BPE encoding, token for token what tiktoken gives.
 *
 * tiktoken merges a piece by scanning all its parts for the lowest pair
 * rank after every merge (quadratic in the piece's length).  Short pieces
 * do the same here; long ones (a megabyte without a space) keep the pairs
 * in a min-heap keyed by (rank, position) in a linked list of parts, which
 * merges in the same order: always the lowest rank, the leftmost of equal
 * ranks.  Pieces that are not a token themselves are remembered in a small
 * direct-mapped cache, since most of them come back.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "pretok.h"
#include "bpe.h"

#define SMALL		64	/* pieces up to this long: the plain scan */
#define CACHE_BITS	16
#define CACHE_KEY	30	/* longest piece cached */
#define CACHE_IDS	8	/* most ids of a piece cached */

struct cache_entry {
	unsigned char	 len;		/* 0: empty */
	unsigned char	 nids;
	unsigned char	 key[CACHE_KEY];
	uint32_t	 ids[CACHE_IDS];
};

struct pskd_bpe_cache {
	struct cache_entry e[1u << CACHE_BITS];
};

void
pskd_ids_reserve(struct pskd_ids *ids, size_t extra)
{
	size_t cap;

	if (ids->cap - ids->n >= extra)
		return;
	cap = ids->cap ? ids->cap : 4096;
	while (cap - ids->n < extra)
		cap *= 2;
	ids->v = pskd_xreallocarray(ids->v, cap, sizeof(*ids->v));
	ids->cap = cap;
}

void
pskd_bpe_init(struct pskd_bpe *e, const struct pskd_ranks *r, int pattern)
{
	memset(e, 0, sizeof(*e));
	e->ranks = r;
	e->pattern = pattern;
	e->cache = pskd_xcalloc(1, sizeof(*e->cache));
}

void
pskd_bpe_free(struct pskd_bpe *e)
{
	free(e->cache);
	free(e->a);
	free(e->b);
	free(e->c);
	free(e->heap);
	memset(e, 0, sizeof(*e));
}

int
pskd_bpe_complete(const struct pskd_ranks *r)
{
	unsigned char c;
	unsigned i;

	for (i = 0; i < 256; i++) {
		c = (unsigned char)i;
		if (pskd_ranks_find(r, &c, 1) == PSKD_RANK_NONE)
			return 0;
	}
	return 1;
}

static void
scratch(struct pskd_bpe *e, size_t n)
{
	if (e->cap >= n + 2)
		return;
	e->cap = n + 2;
	e->a = pskd_xreallocarray(e->a, e->cap, sizeof(uint32_t));
	e->b = pskd_xreallocarray(e->b, e->cap, sizeof(uint32_t));
	e->c = pskd_xreallocarray(e->c, e->cap, sizeof(uint32_t));
	e->heap = pskd_xreallocarray(e->heap, e->cap * 2, sizeof(uint64_t));
}

static inline uint32_t
rank_of(const struct pskd_ranks *r, const unsigned char *p, size_t n)
{
	if (n > r->maxlen)
		return PSKD_RANK_NONE;
	return pskd_ranks_find(r, p, n);
}

static uint32_t
byte_token(const struct pskd_ranks *r, unsigned char c)
{
	uint32_t k = pskd_ranks_find(r, &c, 1);

	if (k == PSKD_RANK_NONE)
		pskd_errx(PSKD_EXIT_DATA, "the vocabulary has no token for "
		    "the byte 0x%02x", c);
	return k;
}

/* tiktoken's loop: part i starts at pos[i]; rk[i] ranks parts i and i+1. */
static size_t
merge_small(struct pskd_bpe *e, const unsigned char *p, size_t n,
    uint32_t *out)
{
	const struct pskd_ranks *r = e->ranks;
	uint32_t *pos = e->a, *rk = e->b, best;
	size_t m, i, k;

	for (i = 0; i < n; i++)
		pos[i] = (uint32_t)i;
	pos[n] = (uint32_t)n;
	m = n;				/* parts */
	for (i = 0; i + 1 < m; i++)
		rk[i] = rank_of(r, p + i, 2);
	rk[m - 1] = PSKD_RANK_NONE;
	for (;;) {
		best = PSKD_RANK_NONE;
		k = 0;
		for (i = 0; i + 1 < m; i++)
			if (rk[i] < best) {
				best = rk[i];
				k = i;
			}
		if (best == PSKD_RANK_NONE)
			break;
		/* Merge parts k and k+1. */
		memmove(pos + k + 1, pos + k + 2, (m - k - 1) * sizeof(*pos));
		memmove(rk + k + 1, rk + k + 2, (m - k - 2) * sizeof(*rk));
		m--;
		rk[k] = k + 1 < m ? rank_of(r, p + pos[k], pos[k + 2] - pos[k]) :
		    PSKD_RANK_NONE;
		if (k > 0)
			rk[k - 1] = rank_of(r, p + pos[k - 1],
			    pos[k + 1] - pos[k - 1]);
	}
	for (i = 0; i < m; i++) {
		if (pos[i + 1] - pos[i] == 1)
			out[i] = byte_token(r, p[pos[i]]);
		else
			out[i] = pskd_ranks_find(r, p + pos[i],
			    pos[i + 1] - pos[i]);
	}
	return m;
}

/* The min-heap of (rank << 32 | position). */
static void
heap_push(uint64_t *h, size_t *n, uint64_t v)
{
	size_t i = (*n)++, up;

	while (i > 0 && h[up = (i - 1) / 2] > v) {
		h[i] = h[up];
		i = up;
	}
	h[i] = v;
}

static uint64_t
heap_pop(uint64_t *h, size_t *n)
{
	uint64_t top = h[0], v = h[--*n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < *n) {
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
	return top;
}

/*
 * Parts are a linked list over byte positions: nx[i] is the start of the
 * part after the one starting at i (n at the end; i dead when nx[i] is 0);
 * pv the one before; rk[i] the rank of the part at i joined to the next.
 */
static size_t
merge_heap(struct pskd_bpe *e, const unsigned char *p, size_t n,
    uint32_t *out)
{
	const struct pskd_ranks *r = e->ranks;
	uint32_t *nx = e->a, *pv = e->b, *rk = e->c, i, j, q, end;
	uint64_t *h = e->heap, top;
	size_t nh = 0, m = 0;

	for (i = 0; i < n; i++) {
		nx[i] = i + 1;
		pv[i] = i - 1;
		rk[i] = i + 1 < n ? rank_of(r, p + i, 2) : PSKD_RANK_NONE;
		if (rk[i] != PSKD_RANK_NONE)
			heap_push(h, &nh, (uint64_t)rk[i] << 32 | i);
	}
	while (nh > 0) {
		top = heap_pop(h, &nh);
		i = (uint32_t)top;
		if (nx[i] == 0 || rk[i] != top >> 32)
			continue;	/* stale */
		j = nx[i];
		nx[i] = nx[j];
		nx[j] = 0;
		if (nx[i] < n)
			pv[nx[i]] = i;
		end = nx[i] < n ? nx[nx[i]] : (uint32_t)n;
		rk[i] = nx[i] < n ? rank_of(r, p + i, end - i) :
		    PSKD_RANK_NONE;
		if (rk[i] != PSKD_RANK_NONE)
			heap_push(h, &nh, (uint64_t)rk[i] << 32 | i);
		if (i > 0) {
			q = pv[i];
			rk[q] = rank_of(r, p + q, nx[i] - q);
			if (rk[q] != PSKD_RANK_NONE)
				heap_push(h, &nh, (uint64_t)rk[q] << 32 | q);
		}
	}
	for (i = 0; i < n; i = nx[i]) {
		if (nx[i] - i == 1)
			out[m++] = byte_token(r, p[i]);
		else
			out[m++] = pskd_ranks_find(r, p + i, nx[i] - i);
	}
	return m;
}

size_t
pskd_bpe_piece(struct pskd_bpe *e, const unsigned char *p, size_t n,
    uint32_t *out)
{
	uint64_t h = pskd_ranks_hash(p, n);
	struct cache_entry *c;
	uint32_t k;
	size_t m;

	if (n <= e->ranks->maxlen &&
	    (k = pskd_ranks_findh(e->ranks, p, n, h)) != PSKD_RANK_NONE) {
		out[0] = k;
		return 1;
	}
	if (n == 1) {
		out[0] = byte_token(e->ranks, p[0]);
		return 1;
	}
	c = NULL;
	if (n <= CACHE_KEY) {
		c = &e->cache->e[h >> (64 - CACHE_BITS)];
		if (c->len == n && memcmp(c->key, p, n) == 0) {
			memcpy(out, c->ids, c->nids * sizeof(*out));
			return c->nids;
		}
	}
	scratch(e, n);
	m = n <= SMALL ? merge_small(e, p, n, out) : merge_heap(e, p, n, out);
	if (c != NULL && m <= CACHE_IDS) {
		c->len = (unsigned char)n;
		c->nids = (unsigned char)m;
		memcpy(c->key, p, n);
		memcpy(c->ids, out, m * sizeof(*out));
	}
	return m;
}

void
pskd_bpe_encode(struct pskd_bpe *e, const unsigned char *text, size_t len,
    struct pskd_ids *out)
{
	size_t pos = 0, end;

	while (pos < len) {
		end = pskd_pretok_next(e->pattern, text, len, pos);
		pskd_ids_reserve(out, end - pos);
		out->n += pskd_bpe_piece(e, text + pos, end - pos,
		    out->v + out->n);
		pos = end;
	}
}
