/*
 * hf-bpe.c - the BPE model of HF tokenizers: its merges, the merge loop,
 * and words of characters (vocabularies that are not byte-level).
 *
 * HF merges the adjacent pair that comes first in the file's merges (its
 * rank), the leftmost of equal ones, until no adjacent pair is a merge;
 * tiktoken instead merges the pair whose result has the lowest rank, and
 * the two rules disagree on some words even where the merges were learned
 * in rank order.  HF keeps a heap of (rank, position) and skips entries
 * that went stale; since a merge only ever widens the pairs around it, a
 * stale entry is one whose position died or whose pair now has another
 * rank, and the heap merges in the same order as a scan of all pairs for
 * the lowest (rank, position) after every merge, which short words do.
 */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "pskd.h"
#include "hf.h"
#include "bpe-merge.h"
#include "bpe-ranks.h"

#define SMALL	48	/* words up to this many symbols: the plain scan */

static void
merges_alloc(struct pskd_hf_merges *m, size_t size)
{
	m->slot = pskd_huge_alloc(size * sizeof(*m->slot));
	m->mask = size - 1;
	m->n = 0;
}

void
pskd_hf_merges_init(struct pskd_hf_merges *m, size_t n)
{
	size_t size;

	for (size = 1024; size * 3 < n * 4; size *= 2)
		;
	merges_alloc(m, size);
}

static void
merges_put(struct pskd_hf_merges *m, uint64_t k, uint32_t rank, uint32_t id)
{
	uint64_t h;
	size_t i;

	h = (k ^ k >> 29) * 0xbf58476d1ce4e5b9ULL;
	for (i = (size_t)(h >> 32) & m->mask;; i = (i + 1) & m->mask)
		if (m->slot[i].key == k || m->slot[i].key == 0)
			break;
	if (m->slot[i].key == 0)
		m->n++;
	m->slot[i].key = k;
	m->slot[i].rank = rank;
	m->slot[i].id = id;
}

void
pskd_hf_merges_add(struct pskd_hf_merges *m, uint32_t a, uint32_t b,
    uint32_t rank, uint32_t id)
{
	struct pskd_hf_merges old;
	size_t i;

	if ((m->n + 1) * 4 > (m->mask + 1) * 3) {
		old = *m;
		merges_alloc(m, (old.mask + 1) * 2);
		for (i = 0; i <= old.mask; i++)
			if (old.slot[i].key != 0)
				merges_put(m, old.slot[i].key,
				    old.slot[i].rank, old.slot[i].id);
		pskd_huge_free(old.slot, (old.mask + 1) * sizeof(*old.slot));
	}
	merges_put(m, pskd_hf_mkey(a, b), rank, id);
}

void
pskd_hf_merges_free(struct pskd_hf_merges *m)
{
	if (m->slot != NULL)
		pskd_huge_free(m->slot, (m->mask + 1) * sizeof(*m->slot));
	memset(m, 0, sizeof(*m));
}

static void
scratch(struct pskd_hf_scratch *s, size_t n)
{
	if (s->cap >= n + 1)
		return;
	s->cap = n + 1;
	s->nx = pskd_xreallocarray(s->nx, s->cap, sizeof(*s->nx));
	s->pv = pskd_xreallocarray(s->pv, s->cap, sizeof(*s->pv));
	/* Past the end: lowest_avx2's last 8 ranks. */
	s->rk = pskd_xreallocarray(s->rk, s->cap + 8, sizeof(*s->rk));
	s->nw = pskd_xreallocarray(s->nw, s->cap, sizeof(*s->nw));
	s->heap = pskd_xreallocarray(s->heap, s->cap * 3, sizeof(*s->heap));
}

/* The first pairs' merges, their slots fetched together, not in turn. */
static void
first_pairs(const struct pskd_hf_merges *m, const uint32_t *ids, size_t n,
    uint32_t *rk, uint32_t *nw)
{
	size_t i;

	for (i = 0; i + 1 < n; i++)
		pskd_hf_merge_prefetch(m, ids[i], ids[i + 1]);
	for (i = 0; i + 1 < n; i++)
		rk[i] = pskd_hf_merge(m, ids[i], ids[i + 1], &nw[i]);
	rk[n - 1] = PSKD_RANK_NONE;
}

/* The merge of the parts at i and j, by the table of pairs. */
static uint32_t
pair_rank(void *ctx, const struct pskd_merge_parts *p, uint32_t i, uint32_t j,
    uint32_t *nw)
{
	return pskd_hf_merge(ctx, p->id[i], p->id[j], nw);
}

/*
 * The lowest of rk[0..n), the first of equal ones, at *k: the pair that
 * merges next.  A merged part's rank is NONE, so the ranks are scanned as
 * they lie, none moved.
 */
static uint32_t
lowest(const uint32_t *rk, uint32_t n, uint32_t *k)
{
	uint32_t best = PSKD_RANK_NONE, i;

	*k = 0;
	for (i = 0; i < n; i++)
		if (rk[i] < best) {
			best = rk[i];
			*k = i;
		}
	return best;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_LOWEST_AVX2	1

/*
 * The same, 8 at a time: the minimum of all, then the first equal to it
 * (rk[n .. n + 8) are NONE).
 */
__attribute__((target("avx2,bmi"))) static uint32_t
lowest_avx2(const uint32_t *rk, uint32_t n, uint32_t *k)
{
	uint32_t j, nv = (n + 7) / 8, mask;
	__m256i v, x;

	v = _mm256_loadu_si256((const __m256i *)rk);
	for (j = 1; j < nv; j++)
		v = _mm256_min_epu32(v,
		    _mm256_loadu_si256((const __m256i *)(rk + 8 * j)));
	x = _mm256_min_epu32(v, _mm256_permute2x128_si256(v, v, 1));
	x = _mm256_min_epu32(x, _mm256_shuffle_epi32(x, 0x4e));
	x = _mm256_min_epu32(x, _mm256_shuffle_epi32(x, 0xb1));
	for (j = 0;; j++) {
		v = _mm256_loadu_si256((const __m256i *)(rk + 8 * j));
		mask = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(
		    _mm256_cmpeq_epi32(v, x)));
		if (mask != 0 || j + 1 >= nv)
			break;
	}
	*k = 8 * j + (uint32_t)__builtin_ctz(mask | 0x100);
	return (uint32_t)_mm256_cvtsi256_si32(x);
}
#endif

/*
 * Short words: the parts left in place, a merged part's rank NONE and
 * nx[]/pv[] linking the live ones, so that the scan for the lowest rank
 * reads rk[] in a row (8 at a time with AVX2) and nothing moves.
 */
static size_t
merge_short(const struct pskd_hf_merges *m, uint32_t *id, size_t n,
    struct pskd_hf_scratch *s)
{
	uint32_t *rk = s->rk, *nw = s->nw, *nx = s->nx, *pv = s->pv;
	uint32_t i, j, k, q, best;
	size_t out = 0;

	for (i = (uint32_t)n - 1; i < n + 7; i++)
		rk[i] = PSKD_RANK_NONE;
	for (i = 0; i < n; i++) {
		nx[i] = i + 1;
		pv[i] = i - 1;
	}
	for (;;) {
#ifdef HAVE_LOWEST_AVX2
		if (s->avx2)
			best = lowest_avx2(rk, (uint32_t)n - 1, &k);
		else
#endif
			best = lowest(rk, (uint32_t)n - 1, &k);
		if (best == PSKD_RANK_NONE)
			break;
		id[k] = nw[k];
		j = nx[k];
		rk[j] = PSKD_RANK_NONE;
		nx[k] = nx[j];
		if (nx[k] < n) {
			pv[nx[k]] = k;
			rk[k] = pskd_hf_merge(m, id[k], id[nx[k]], &nw[k]);
		} else
			rk[k] = PSKD_RANK_NONE;
		if (k > 0) {
			q = pv[k];
			rk[q] = pskd_hf_merge(m, id[q], id[k], &nw[q]);
		}
	}
	for (i = 0; i < n; i = nx[i])
		id[out++] = id[i];
	return out;
}

/*
 * HF's BPE merges on ids[0..n) in place: always the pair that comes first
 * in the merges, the leftmost of equal ones; returns the new count.
 */
static size_t
merge_all(const struct pskd_hf_merges *m, uint32_t *ids, size_t n,
    struct pskd_hf_scratch *s)
{
	struct pskd_merge_parts p;

	if (n < 2)
		return n;
	scratch(s, n);
	first_pairs(m, ids, n, s->rk, s->nw);
	if (n <= SMALL)
		return merge_short(m, ids, n, s);
	p.nx = s->nx;
	p.pv = s->pv;
	p.rk = s->rk;
	p.id = ids;
	p.nw = s->nw;
	p.heap = s->heap;
	return pskd_merge_heapwise(&p, (uint32_t)n, pair_rank, (void *)m);
}

/* ---- words of characters --------------------------------------------- */

#define WCACHE_BITS	16
#define WCACHE_REC	120

/* A word seen before: its bytes, then its ids. */
struct wcache {
	uint64_t	 h;
	uint16_t	 len;		/* 0: empty */
	uint16_t	 nids;
	uint32_t	 unused;
	unsigned char	 rec[WCACHE_REC];
};

/*
 * Most words are short and make few ids: those are also kept in a table
 * of 32-byte entries keyed as bpe-ranks.h keys a short token (the bytes
 * and the length, no hash to check, no compare of a length the lengths
 * of text's words mispredict), their ids moved in one piece.
 */
#define SCACHE_BITS	15
#define SCACHE_IDS	4

struct scache {
	uint64_t	 k0;
	uint32_t	 k1;		/* 0: empty (the length is on top) */
	uint32_t	 nids;
	uint32_t	 ids[SCACHE_IDS];
};

struct pskd_hf_words {
	const struct pskd_hf *hf;
	struct pskd_hf_scratch s;
	struct pskd_buf	 key;		/* a character with prefix, suffix */
	uint32_t	*ids;
	size_t		 cap;
	struct wcache	*cache;
	struct scache	*scache;
};

struct pskd_hf_words *
pskd_hf_words_new(const struct pskd_hf *hf)
{
	struct pskd_hf_words *w = pskd_xcalloc(1, sizeof(*w));

	w->hf = hf;
	w->s.avx2 = pskd_simd() >= PSKD_SIMD_AVX2;
	w->cache = pskd_xcalloc((size_t)1 << WCACHE_BITS, sizeof(*w->cache));
	w->scache = pskd_xcalloc((size_t)1 << SCACHE_BITS,
	    sizeof(*w->scache));
	return w;
}

void
pskd_hf_words_free(struct pskd_hf_words *w)
{
	if (w == NULL)
		return;
	free(w->s.nx);
	free(w->s.pv);
	free(w->s.rk);
	free(w->s.nw);
	free(w->s.heap);
	pskd_buf_free(&w->key);
	free(w->ids);
	free(w->cache);
	free(w->scache);
	free(w);
}

/* Room for n more ids in w->ids past k. */
static void
room(struct pskd_hf_words *w, size_t k, size_t n)
{
	if (k + n + 1 <= w->cap)
		return;
	w->cap = (k + n + 1) * 2;
	w->ids = pskd_xreallocarray(w->ids, w->cap, sizeof(*w->ids));
}

/* The symbols of s[0..n) into w->ids, as HF's merge_word makes them. */
static size_t
symbols(struct pskd_hf_words *w, const unsigned char *s, size_t n)
{
	const struct pskd_hf *hf = w->hf;
	const unsigned char *c;
	uint32_t id, unk = PSKD_RANK_NONE;
	size_t i, k = 0, cl, j, clen;
	int affix = hf->prefixlen != 0 || hf->suffixlen != 0;

	room(w, 0, n + 1);	/* a character's symbols: its bytes at most */
	for (i = 0; i < n; i += cl) {
		/* ASCII and ▁, most of the characters, without the decoder. */
		if (s[i] < 0x80) {
			cl = 1;
			id = s[i];
		} else if (n - i >= PSKD_HF_BARLEN &&
		    memcmp(s + i, PSKD_HF_BAR, PSKD_HF_BARLEN) == 0) {
			cl = PSKD_HF_BARLEN;
			id = PSKD_HF_BARCP;
		} else
			cl = pskd_utf8_decode(s + i, n - i, &id);
		if (cl == 0) {
			cl = 1;
			id = PSKD_HF_CHARS;	/* not UTF-8: by its byte */
		}
		c = s + i;
		clen = cl;
		if (affix && ((i > 0 && hf->prefixlen) ||
		    (i + cl == n && hf->suffixlen))) {
			w->key.len = 0;
			if (i > 0)
				pskd_buf_add(&w->key, hf->prefix,
				    hf->prefixlen);
			pskd_buf_add(&w->key, s + i, cl);
			if (i + cl == n)
				pskd_buf_add(&w->key, hf->suffix,
				    hf->suffixlen);
			c = w->key.p;
			clen = w->key.len;
			room(w, k, clen + 1);
		}
		if (c == s + i && id < PSKD_HF_CHARS)
			id = hf->charid[id];	/* id held the code point */
		else if (c == s + i && id == PSKD_HF_BARCP)
			id = hf->metaid;	/* past charid */
		else
			id = pskd_ranks_find(&hf->vocab, c, clen);
		if (id != PSKD_RANK_NONE) {
			if (unk != PSKD_RANK_NONE)
				w->ids[k++] = unk;
			unk = PSKD_RANK_NONE;
			w->ids[k++] = id;
			continue;
		}
		if (hf->byte_fallback) {
			for (j = 0; j < clen && hf->fallback[c[j]] !=
			    PSKD_RANK_NONE; j++)
				;
			if (j == clen) {
				/* Like HF, a pending unk waits past these. */
				for (j = 0; j < clen; j++)
					w->ids[k++] = hf->fallback[c[j]];
				continue;
			}
		}
		if (hf->unk == PSKD_RANK_NONE)
			continue;	/* HF drops the character */
		if (unk != PSKD_RANK_NONE && !hf->fuse_unk)
			w->ids[k++] = unk;
		unk = hf->unk;
	}
	if (unk != PSKD_RANK_NONE) {
		room(w, k, 1);
		w->ids[k++] = unk;
	}
	return k;
}

/* One word, h its XXH3 when it is short enough for the cache. */
static void
word(struct pskd_hf_words *w, const unsigned char *s, size_t n, uint64_t h,
    struct pskd_ids *out)
{
	const struct pskd_hf *hf = w->hf;
	struct wcache *c = NULL;
	uint32_t id;
	size_t k;

	if (hf->ignore_merges && (id = pskd_ranks_find(&hf->vocab, s, n)) !=
	    PSKD_RANK_NONE) {
		pskd_ids_push(out, id);
		return;
	}
	if (n <= WCACHE_REC - 4) {
		c = &w->cache[h >> (64 - WCACHE_BITS)];
		if (c->h == h && c->len == n && memcmp(c->rec, s, n) == 0) {
			pskd_ids_reserve(out, c->nids);
			memcpy(out->v + out->n, c->rec + n,
			    c->nids * sizeof(uint32_t));
			out->n += c->nids;
			return;
		}
	}
	k = symbols(w, s, n);
	k = merge_all(&hf->merges, w->ids, k, &w->s);
	pskd_ids_reserve(out, k);
	if (k > 0)	/* none: out->v may be NULL yet */
		memcpy(out->v + out->n, w->ids, k * sizeof(uint32_t));
	out->n += k;
	if (c != NULL && n + k * sizeof(uint32_t) <= WCACHE_REC) {
		c->h = h;
		c->len = (uint16_t)n;
		c->nids = (uint16_t)k;
		memcpy(c->rec, s, n);
		memcpy(c->rec + n, w->ids, k * sizeof(uint32_t));
	}
}

void
pskd_hf_word(struct pskd_hf_words *w, const unsigned char *s, size_t n,
    struct pskd_ids *out)
{
	word(w, s, n, n <= WCACHE_REC - 4 ? XXH3_64bits(s, n) : 0, out);
}

void
pskd_hf_word_batch(struct pskd_hf_words *w, const unsigned char *s,
    size_t len, const size_t *at, size_t k, struct pskd_ids *out)
{
	uint64_t h[PSKD_HF_BATCH], k0[PSKD_HF_BATCH];
	uint32_t k1[PSKD_HF_BATCH];
	struct scache *c;
	size_t i, n, m;

	/* Key or hash all, fetch their cache entries, then look them up. */
	for (i = 0; i < k; i++) {
		n = at[i + 1] - at[i];
		if (n - 1 < PSKD_RANK_SHORT) {
			if (at[i] + 16 <= len)
				pskd_ranks_key16(s + at[i], n, &k0[i], &k1[i]);
			else
				pskd_ranks_key(s + at[i], n, &k0[i], &k1[i]);
			h[i] = pskd_ranks_keyhash(k0[i], k1[i]);
			__builtin_prefetch(&w->scache[h[i] >>
			    (64 - SCACHE_BITS)]);
		} else {
			h[i] = n <= WCACHE_REC - 4 ? XXH3_64bits(s + at[i],
			    n) : 0;
			__builtin_prefetch(&w->cache[h[i] >>
			    (64 - WCACHE_BITS)]);
		}
	}
	for (i = 0; i < k; i++) {
		n = at[i + 1] - at[i];
		if (n - 1 >= PSKD_RANK_SHORT) {
			word(w, s + at[i], n, h[i], out);
			continue;
		}
		c = &w->scache[h[i] >> (64 - SCACHE_BITS)];
		if (c->k0 == k0[i] && c->k1 == k1[i]) {
			/* All SCACHE_IDS in one move: room for them. */
			if (out->cap - out->n < SCACHE_IDS)
				pskd_ids_reserve(out, SCACHE_IDS);
			memcpy(out->v + out->n, c->ids, sizeof(c->ids));
			out->n += c->nids;
			continue;
		}
		m = out->n;
		word(w, s + at[i], n, XXH3_64bits(s + at[i], n), out);
		if (out->n - m <= SCACHE_IDS) {
			c->k0 = k0[i];
			c->k1 = k1[i];
			c->nids = (uint32_t)(out->n - m);
			memcpy(c->ids, out->v + m, c->nids * sizeof(uint32_t));
		}
	}
}
