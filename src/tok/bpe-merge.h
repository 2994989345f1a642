/*
 * bpe-merge.h - what the merge loops of BPE share (bpe.c for byte-level
 * pieces by tiktoken's rule or HF's, hf-bpe.c for words of characters):
 * the parts of a piece are a list over positions, nx[i] the one after the
 * part at i (n at the end), rk[i] the rank of the part at i joined to the
 * next;
 * short pieces scan it for the lowest rank after every merge, long ones
 * keep a 4-ary min-heap of (rank << 32 | position), half the depth of a
 * binary heap, whose four children of a node share a cache line.
 */
#ifndef PSKD_BPE_MERGE_H
#define PSKD_BPE_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "bpe-ranks.h"

/*
 * The part with the lowest rank, the leftmost of equal ones: its position
 * in *k, the part before it in *kq; the rank, PSKD_RANK_NONE if none.
 */
static inline uint32_t
pskd_merge_lowest(const uint32_t *nx, const uint32_t *rk, uint32_t n,
    uint32_t *k, uint32_t *kq)
{
	uint32_t best = PSKD_RANK_NONE, i, q;

	*k = *kq = 0;
	for (q = i = 0; i < n; q = i, i = nx[i])
		if (rk[i] < best) {
			best = rk[i];
			*k = i;
			*kq = q;
		}
	return best;
}

static inline void
pskd_heap_up(uint64_t *h, size_t i, uint64_t v)
{
	size_t up;

	while (i > 0 && h[up = (i - 1) / 4] > v) {
		h[i] = h[up];
		i = up;
	}
	h[i] = v;
}

static inline void
pskd_heap_down(uint64_t *h, size_t n, size_t i, uint64_t v)
{
	size_t c, k, best;

	while ((c = 4 * i + 1) < n) {
		best = c;
		for (k = c + 1; k < c + 4 && k < n; k++)
			if (h[k] < h[best])
				best = k;
		if (h[best] >= v)
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = v;
}

static inline void
pskd_heap_push(uint64_t *h, size_t *n, uint64_t v)
{
	pskd_heap_up(h, (*n)++, v);
}

static inline uint64_t
pskd_heap_pop(uint64_t *h, size_t *n)
{
	uint64_t top = h[0];

	if (--*n > 0)
		pskd_heap_down(h, *n, 0, h[*n]);
	return top;
}

/* Make h[0..n) a heap. */
static inline void
pskd_heapify(uint64_t *h, size_t n)
{
	size_t j;

	for (j = n / 4 + 1; j-- > 0; )
		if (j < n)
			pskd_heap_down(h, n, j, h[j]);
}

/*
 * HF's merges on n parts, whatever finds a merge: the parts' tokens in
 * id[], nx[i] the part after i, pv[i] the one before; rk[i] and nw[i] the
 * rank and token of the part at i merged with the next, which the caller
 * has filled for the first parts.  rank(ctx, m, i, j, &nw) gives them for
 * the parts at i and j = nx[i] (the one after j at nx[j]).  The surviving
 * tokens end up in id[0..return value).
 */
struct pskd_merge_parts {
	uint32_t	*nx, *pv, *rk, *id, *nw;
	uint64_t	*heap;
};

typedef uint32_t pskd_merge_rank_fn(void *ctx,
	    const struct pskd_merge_parts *m, uint32_t i, uint32_t j,
	    uint32_t *nw);

/* Short pieces: a scan for the lowest rank after every merge. */
static inline size_t
pskd_merge_scan(struct pskd_merge_parts *m, uint32_t n,
    pskd_merge_rank_fn *rank, void *ctx)
{
	uint32_t *nx = m->nx, *rk = m->rk, *id = m->id, *nw = m->nw;
	uint32_t i, j, k, kq;
	size_t out = 0;

	for (i = 0; i < n; i++)
		nx[i] = i + 1;
	while (pskd_merge_lowest(nx, rk, n, &k, &kq) != PSKD_RANK_NONE) {
		id[k] = nw[k];
		j = nx[k] = nx[nx[k]];
		rk[k] = j < n ? rank(ctx, m, k, j, &nw[k]) : PSKD_RANK_NONE;
		if (k > 0)
			rk[kq] = rank(ctx, m, kq, k, &nw[kq]);
	}
	for (i = 0; i < n; i = nx[i])
		id[out++] = id[i];
	return out;
}

/*
 * Long ones: the heap, entries that went stale skipped (a merge only ever
 * widens the pairs around it, so a stale entry is one whose part died or
 * whose pair now has another rank); the same order as the scan.
 */
static inline size_t
pskd_merge_heapwise(struct pskd_merge_parts *m, uint32_t n,
    pskd_merge_rank_fn *rank, void *ctx)
{
	uint32_t *nx = m->nx, *pv = m->pv, *rk = m->rk, *id = m->id;
	uint32_t *nw = m->nw, i, j, q;
	uint64_t *h = m->heap, top;
	size_t nh = 0, out = 0;

	for (i = 0; i < n; i++) {
		nx[i] = i + 1;
		pv[i] = i - 1;
		if (rk[i] != PSKD_RANK_NONE)
			h[nh++] = (uint64_t)rk[i] << 32 | i;
	}
	pskd_heapify(h, nh);
	while (nh > 0) {
		top = pskd_heap_pop(h, &nh);
		i = (uint32_t)top;
		if (nx[i] == 0 || rk[i] != top >> 32)
			continue;	/* stale */
		id[i] = nw[i];
		j = nx[i];
		nx[i] = nx[j];
		nx[j] = 0;
		if (nx[i] < n)
			pv[nx[i]] = i;
		rk[i] = nx[i] < n ? rank(ctx, m, i, nx[i], &nw[i]) :
		    PSKD_RANK_NONE;
		if (rk[i] != PSKD_RANK_NONE)
			pskd_heap_push(h, &nh, (uint64_t)rk[i] << 32 | i);
		if (i > 0) {
			q = pv[i];
			rk[q] = rank(ctx, m, q, i, &nw[q]);
			if (rk[q] != PSKD_RANK_NONE)
				pskd_heap_push(h, &nh, (uint64_t)rk[q] << 32 | q);
		}
	}
	for (i = 0; i < n; i = nx[i])
		id[out++] = id[i];
	return out;
}

#endif
