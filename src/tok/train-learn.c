/*
 * train-learn.c - the BPE merge loop of pskd-tok --train, over the counts
 * of distinct pre-tokens (train-count.c).
 *
 * The distinct pre-tokens become words: runs of symbols in one array, each
 * symbol a token rank linked to its neighbours.  Every adjacent pair of
 * symbols has an entry in a pair table with its count (the sum of the counts
 * of the words it occurs in, overlapping occurrences included) and the list
 * of positions where it occurs.  A max-heap orders the pairs.  Merging the
 * best pair walks its positions only, and updates the counts of the pairs
 * around each merged position; positions that went stale are skipped when
 * their list is walked, so nothing is ever rescanned.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "pskd.h"
#include "train.h"

#define NONE	UINT32_MAX

/* ---- the merge loop ------------------------------------------------------ */

struct pair {
	uint64_t	 count;
	uint32_t	 a, b;		/* left and right token */
	uint32_t	*occ;		/* positions of the left symbol */
	uint32_t	 nocc, cap;
	uint32_t	 heap;		/* index in the heap, or NONE */
	unsigned char	 unsorted;	/* occ not ascending */
};

struct learner {
	/* symbols */
	uint32_t	*id, *next, *prev, *word;
	uint64_t	*wcount;
	/* pairs, and an index (a, b) -> pair */
	struct pair	*pair;
	size_t		 npair, cappair;
	uint64_t	*pkey;
	uint32_t	*pval;		/* pair + 1; 0 for an empty slot */
	size_t		 pmask;
	/* the heap of the pairs with a count (building: not yet) */
	uint32_t	*heap;
	size_t		 nheap;
	int		 building;
	/* tokens, and an index bytes -> rank */
	struct pskd_buf	 tok;
	size_t		*off;
	size_t		 ntok, capoff;
	uint64_t	*thash;
	uint32_t	*tslot;		/* rank + 1; 0 for an empty slot */
	size_t		 tmask;
};

static size_t
pair_slot(uint64_t key, size_t mask)
{
	key *= 0x9E3779B97F4A7C15ULL;
	return (size_t)(key ^ key >> 29) & mask;
}

static void
pindex_grow(struct learner *l)
{
	size_t i, j, nmask = l->pmask ? l->pmask * 2 + 1 : (1u << 10) - 1;
	uint64_t *nk = pskd_xcalloc(nmask + 1, sizeof(*nk));
	uint32_t *nv = pskd_xcalloc(nmask + 1, sizeof(*nv));

	for (i = 0; l->pmask && i <= l->pmask; i++) {
		if (l->pval[i] == 0)
			continue;
		for (j = pair_slot(l->pkey[i], nmask); nv[j] != 0;
		    j = (j + 1) & nmask)
			;
		nk[j] = l->pkey[i];
		nv[j] = l->pval[i];
	}
	free(l->pkey);
	free(l->pval);
	l->pkey = nk;
	l->pval = nv;
	l->pmask = nmask;
}

/* The pair (a, b), created with a zero count when it is new. */
static uint32_t
pair_get(struct learner *l, uint32_t a, uint32_t b)
{
	uint64_t key = (uint64_t)a << 32 | b;
	struct pair *p;
	size_t i;

	for (i = pair_slot(key, l->pmask); l->pval[i] != 0;
	    i = (i + 1) & l->pmask)
		if (l->pkey[i] == key)
			return l->pval[i] - 1;
	if (l->npair >= NONE - 1)
		pskd_errx(PSKD_EXIT_DATA, "--train: too many distinct pairs");
	if (l->npair == l->cappair) {
		l->cappair = l->cappair ? l->cappair * 2 : 1024;
		l->pair = pskd_xreallocarray(l->pair, l->cappair,
		    sizeof(*l->pair));
		l->heap = pskd_xreallocarray(l->heap, l->cappair,
		    sizeof(*l->heap));
	}
	p = &l->pair[l->npair];
	memset(p, 0, sizeof(*p));
	p->a = a;
	p->b = b;
	p->heap = NONE;
	l->pkey[i] = key;
	l->pval[i] = (uint32_t)++l->npair;
	if (l->npair * 2 > l->pmask)
		pindex_grow(l);
	return (uint32_t)(l->npair - 1);
}

static void	heap_fix(struct learner *, uint32_t);

/* Count c more occurrences of (a, b), one at position pos. */
static void
pair_add(struct learner *l, uint32_t a, uint32_t b, uint64_t c, uint32_t pos)
{
	uint32_t k = pair_get(l, a, b);
	struct pair *p = &l->pair[k];

	p->count += c;
	if (p->nocc == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 2;
		p->occ = pskd_xreallocarray(p->occ, p->cap, sizeof(*p->occ));
	}
	if (p->nocc > 0 && p->occ[p->nocc - 1] > pos)
		p->unsorted = 1;
	p->occ[p->nocc++] = pos;
	if (!l->building)
		heap_fix(l, k);
}

/* c fewer occurrences of (a, b), which exists. */
static void
pair_sub(struct learner *l, uint32_t a, uint32_t b, uint64_t c)
{
	uint32_t k = pair_get(l, a, b);

	if (l->pair[k].count < c)
		pskd_errx(PSKD_EXIT_DATA, "--train: internal error: pair "
		    "count below zero");
	l->pair[k].count -= c;
	heap_fix(l, k);
}

/* ---- the heap: highest count first, then lowest (left, right) rank ------ */

static int
better(const struct learner *l, uint32_t x, uint32_t y)
{
	const struct pair *p = &l->pair[x], *q = &l->pair[y];

	if (p->count != q->count)
		return p->count > q->count;
	if (p->a != q->a)
		return p->a < q->a;
	return p->b < q->b;
}

static void
heap_set(struct learner *l, size_t i, uint32_t k)
{
	l->heap[i] = k;
	l->pair[k].heap = (uint32_t)i;
}

static void
sift_up(struct learner *l, size_t i)
{
	uint32_t k = l->heap[i];

	while (i > 0 && better(l, k, l->heap[(i - 1) / 2])) {
		heap_set(l, i, l->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	heap_set(l, i, k);
}

static void
sift_down(struct learner *l, size_t i)
{
	uint32_t k = l->heap[i];
	size_t c;

	while ((c = 2 * i + 1) < l->nheap) {
		if (c + 1 < l->nheap && better(l, l->heap[c + 1], l->heap[c]))
			c++;
		if (!better(l, l->heap[c], k))
			break;
		heap_set(l, i, l->heap[c]);
		i = c;
	}
	heap_set(l, i, k);
}

static void
heap_remove(struct learner *l, uint32_t k)
{
	size_t i = l->pair[k].heap;
	uint32_t m;

	l->pair[k].heap = NONE;
	if (i == --l->nheap)
		return;
	m = l->heap[l->nheap];
	heap_set(l, i, m);
	sift_up(l, i);
	sift_down(l, l->pair[m].heap);
}

/* Put pair k where its count now belongs; drop it once it is gone. */
static void
heap_fix(struct learner *l, uint32_t k)
{
	struct pair *p = &l->pair[k];

	if (p->count == 0) {
		if (p->heap != NONE)
			heap_remove(l, k);
		free(p->occ);
		p->occ = NULL;
		p->nocc = p->cap = 0;
		p->unsorted = 0;
		return;
	}
	if (p->heap == NONE) {
		p->heap = (uint32_t)l->nheap;
		l->heap[l->nheap++] = k;
	}
	sift_up(l, p->heap);
	sift_down(l, l->pair[k].heap);
}

/* ---- tokens --------------------------------------------------------------- */

static void
tindex_put(struct learner *l, uint32_t r)
{
	size_t i;

	for (i = (size_t)l->thash[r] & l->tmask; l->tslot[i] != 0;
	    i = (i + 1) & l->tmask)
		;
	l->tslot[i] = r + 1;
}

/* Room for one more token (the arrays grow with the tokens, not with N). */
static void
token_room(struct learner *l)
{
	size_t r;

	if (l->ntok + 1 >= l->capoff) {
		l->capoff *= 2;
		l->off = pskd_xreallocarray(l->off, l->capoff, sizeof(*l->off));
		l->thash = pskd_xreallocarray(l->thash, l->capoff,
		    sizeof(*l->thash));
	}
	if ((l->ntok + 1) * 2 > l->tmask) {
		free(l->tslot);
		l->tmask = l->tmask * 2 + 1;
		l->tslot = pskd_xcalloc(l->tmask + 1, sizeof(*l->tslot));
		for (r = 0; r < l->ntok; r++)
			tindex_put(l, (uint32_t)r);
	}
}

/* The rank of the token a + b, added when it is new. */
static uint32_t
token_join(struct learner *l, uint32_t a, uint32_t b, int *isnew)
{
	size_t la = l->off[a + 1] - l->off[a], lb = l->off[b + 1] - l->off[b];
	size_t n = la + lb, i, r;
	uint64_t h;

	pskd_buf_reserve(&l->tok, n);
	memcpy(l->tok.p + l->tok.len, l->tok.p + l->off[a], la);
	memcpy(l->tok.p + l->tok.len + la, l->tok.p + l->off[b], lb);
	h = XXH3_64bits(l->tok.p + l->tok.len, n);
	for (i = (size_t)h & l->tmask; l->tslot[i] != 0;
	    i = (i + 1) & l->tmask) {
		r = l->tslot[i] - 1;
		if (l->thash[r] == h && l->off[r + 1] - l->off[r] == n &&
		    memcmp(l->tok.p + l->off[r], l->tok.p + l->tok.len,
		    n) == 0) {
			*isnew = 0;
			return (uint32_t)r;
		}
	}
	*isnew = 1;
	token_room(l);
	l->tok.len += n;
	r = l->ntok++;
	l->off[l->ntok] = l->tok.len;
	l->thash[r] = h;
	tindex_put(l, (uint32_t)r);
	return (uint32_t)r;
}

static int
cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* Merge every occurrence of pair k into token nw, left to right. */
static void
merge(struct learner *l, uint32_t k, uint32_t nw)
{
	uint32_t a = l->pair[k].a, b = l->pair[k].b;
	uint32_t *occ = l->pair[k].occ, n = l->pair[k].nocc, i;
	uint32_t p, r, pv, nx;
	uint64_t c;

	/* Detached: no new occurrence of (a, b) can appear (nw != a, b). */
	if (l->pair[k].unsorted)
		qsort(occ, n, sizeof(*occ), cmp_u32);
	l->pair[k].occ = NULL;
	l->pair[k].nocc = l->pair[k].cap = 0;
	l->pair[k].unsorted = 0;
	for (i = 0; i < n; i++) {
		p = occ[i];
		if (l->id[p] != a)
			continue;
		r = l->next[p];
		if (r == NONE || l->id[r] != b)
			continue;
		c = l->wcount[l->word[p]];
		pv = l->prev[p];
		nx = l->next[r];
		if (pv != NONE) {
			pair_sub(l, l->id[pv], a, c);
			pair_add(l, l->id[pv], nw, c, pv);
		}
		if (nx != NONE) {
			pair_sub(l, b, l->id[nx], c);
			pair_add(l, nw, l->id[nx], c, p);
		}
		pair_sub(l, a, b, c);
		l->id[p] = nw;
		l->next[p] = nx;
		if (nx != NONE)
			l->prev[nx] = p;
		l->id[r] = NONE;
	}
	free(occ);
	if (l->pair[k].count != 0)
		pskd_errx(PSKD_EXIT_DATA, "--train: internal error: a merged "
		    "pair is left");
}

/* Words of two bytes or more become symbol runs; their pairs are counted. */
static void
load_words(struct learner *l, const struct pskd_wordcount *wc)
{
	const unsigned char *w;
	size_t i, j, nsym = 0, nword = 0, s, len;
	uint64_t count;
	uint32_t k;

	for (i = 0; pskd_wordcount_next(wc, &i, &w, &len, &count);) {
		if (len < 2)
			continue;
		if (len >= NONE - 1 - nsym)
			pskd_errx(PSKD_EXIT_DATA, "--train: distinct "
			    "pre-tokens too long in all (4 GiB at most)");
		nsym += len;
		nword++;
	}
	l->id = pskd_xreallocarray(NULL, nsym + 1, sizeof(*l->id));
	l->next = pskd_xreallocarray(NULL, nsym + 1, sizeof(*l->next));
	l->prev = pskd_xreallocarray(NULL, nsym + 1, sizeof(*l->prev));
	l->word = pskd_xreallocarray(NULL, nsym + 1, sizeof(*l->word));
	l->wcount = pskd_xreallocarray(NULL, nword + 1, sizeof(*l->wcount));
	pindex_grow(l);
	l->building = 1;
	s = nword = 0;
	for (i = 0; pskd_wordcount_next(wc, &i, &w, &len, &count);) {
		if (len < 2)
			continue;
		l->wcount[nword] = count;
		for (j = 0; j < len; j++) {
			l->id[s + j] = w[j];
			l->prev[s + j] = j ? (uint32_t)(s + j - 1) : NONE;
			l->next[s + j] = j + 1 < len ? (uint32_t)(s + j + 1) :
			    NONE;
			l->word[s + j] = (uint32_t)nword;
			if (j > 0)
				pair_add(l, l->id[s + j - 1], l->id[s + j],
				    count, (uint32_t)(s + j - 1));
		}
		s += len;
		nword++;
	}
	/* Every pair is new: heapify them all at once. */
	for (k = 0; k < l->npair; k++)
		heap_set(l, k, k);
	l->nheap = l->npair;
	l->building = 0;
	for (i = l->nheap / 2; i-- > 0;)
		sift_down(l, i);
}

static void
learner_free(struct learner *l)
{
	size_t k;

	for (k = 0; k < l->npair; k++)
		free(l->pair[k].occ);
	free(l->pair);
	free(l->pkey);
	free(l->pval);
	free(l->heap);
	free(l->id);
	free(l->next);
	free(l->prev);
	free(l->word);
	free(l->wcount);
	free(l->thash);
	free(l->tslot);
}

void
pskd_bpe_learn(const struct pskd_wordcount *wc, size_t ntokens,
    uint64_t minfreq, struct pskd_bpe_vocab *v,
    void (*progress)(size_t ntok, size_t want))
{
	struct learner l;
	uint32_t k, nw;
	size_t i;
	int isnew;

	memset(&l, 0, sizeof(l));
	memset(v, 0, sizeof(*v));
	if (ntokens < 256)
		ntokens = 256;
	if (minfreq == 0)
		minfreq = 1;
	l.capoff = 1024;
	l.off = pskd_xreallocarray(NULL, l.capoff, sizeof(*l.off));
	l.thash = pskd_xreallocarray(NULL, l.capoff, sizeof(*l.thash));
	l.tmask = 1023;
	l.tslot = pskd_xcalloc(l.tmask + 1, sizeof(*l.tslot));
	l.off[0] = 0;
	for (i = 0; i < 256; i++) {
		pskd_buf_addc(&l.tok, (unsigned char)i);
		l.off[i + 1] = i + 1;
		l.thash[i] = XXH3_64bits(l.tok.p + i, 1);
		tindex_put(&l, (uint32_t)i);
	}
	l.ntok = 256;
	load_words(&l, wc);

	while (l.ntok < ntokens && l.nheap > 0) {
		k = l.heap[0];
		if (l.pair[k].count < minfreq) {
			v->stopcount = l.pair[k].count;
			break;
		}
		nw = token_join(&l, l.pair[k].a, l.pair[k].b, &isnew);
		v->merge = pskd_xreallocarray(v->merge, 2 * v->nmerges + 2,
		    sizeof(*v->merge));
		v->merge[2 * v->nmerges] = l.pair[k].a;
		v->merge[2 * v->nmerges + 1] = l.pair[k].b;
		merge(&l, k, nw);
		v->nmerges++;
		if (progress != NULL)
			progress(l.ntok, ntokens);
	}
	v->ntokens = l.ntok;
	v->bytes = l.tok.p;
	v->off = l.off;
	learner_free(&l);
}

void
pskd_bpe_vocab_free(struct pskd_bpe_vocab *v)
{
	free(v->bytes);
	free(v->off);
	free(v->merge);
	memset(v, 0, sizeof(*v));
}

long long
pskd_bpe_vocab_find(const struct pskd_bpe_vocab *v, const unsigned char *s,
    size_t n)
{
	size_t r;

	for (r = 0; r < v->ntokens; r++)
		if (v->off[r + 1] - v->off[r] == n &&
		    memcmp(v->bytes + v->off[r], s, n) == 0)
			return (long long)r;
	return -1;
}
