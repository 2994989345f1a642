/*
 * decon.c - pskd-decon's benchmark n-grams (exact.h; pskd-decon(1)): each
 * item's text normalised as pskd-shingle normalises it, its word n-grams
 * kept; a document's n-grams looked up by a key rolled over its words'
 * hashes (a bit per key's top bits first, then a table), and a key that
 * matches confirmed byte for byte, so a match is the same words.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "exact/exact.h"

#define BASE	0x9e3779b97f4a7c15ULL	/* the rolling key's multiplier */

void
x_decon_init(struct x_decon *x, uint32_t n, unsigned norm)
{
	uint32_t i;

	memset(x, 0, sizeof(*x));
	x->n = n;
	pskd_norm_init(&x->nm, norm);
	for (x->pow = 1, i = 1; i < n; i++)
		x->pow *= BASE;
}

/* Word k of the normalised text t[0..len), seps its separators. */
static inline void
word(const uint32_t *sv, size_t nw, size_t len, size_t k, size_t *a,
    size_t *b)
{
	*a = k == 0 ? 0 : (size_t)sv[k - 1] + 1;
	*b = k + 1 == nw ? len : sv[k];
}

/*
 * The hash of a word p[0..len), 8 bytes readable at p: a word of up to 8
 * bytes mixed as one number (most are), a longer one by XXH3.  It only
 * picks candidates, which are confirmed byte for byte.
 */
static inline uint64_t
word_hash(const unsigned char *p, size_t len)
{
	uint64_t w;

	if (len > 8)
		return XXH3_64bits(p, len);
	w = pskd_get_le64(p) & (~0ULL >> (64 - 8 * len));
	return x_fmix64(w ^ (uint64_t)len << 59 ^ 0x9e3779b97f4a7c15ULL);
}

/*
 * Normalise text into x->ntext and hash its words into x->wh; returns
 * the number of words.
 */
static size_t
words(struct x_decon *x, const unsigned char *text, size_t len)
{
	const uint32_t *sv;
	size_t nw, k, a, b;

	x->ntext.len = 0;
	x->seps.len = 0;
	(void)pskd_norm_text(&x->nm, &x->ntext, text, len, 1, &x->seps);
	if (x->ntext.len == 0)
		return 0;
	nw = x->seps.len / 4 + 1;
	if (nw > x->whcap) {
		x->whcap = nw + nw / 2;
		x->wh = pskd_xreallocarray(x->wh, x->whcap, sizeof(*x->wh));
	}
	sv = (const uint32_t *)(void *)x->seps.p;
	/* Eight zero bytes after the text, so a short word loads whole. */
	pskd_buf_reserve(&x->ntext, 8);
	memset(x->ntext.p + x->ntext.len, 0, 8);
	for (k = 0; k < nw; k++) {
		word(sv, nw, x->ntext.len, k, &a, &b);
		x->wh[k] = word_hash(x->ntext.p + a, b - a);
	}
	return nw;
}

/* The key of the n-gram at word i, from the last one's (i > 0). */
static inline uint64_t
roll(const struct x_decon *x, uint64_t h, size_t i)
{
	size_t j;

	if (i == 0) {
		for (h = 0, j = 0; j < x->n; j++)
			h = h * BASE + x->wh[j];
		return h;
	}
	return (h - x->wh[i - 1] * x->pow) * BASE + x->wh[i + x->n - 1];
}

static void
gram_add(struct x_decon *x, uint64_t key, uint32_t item, uint64_t off,
    size_t len)
{
	if (x->ngram == x->gramcap) {
		x->gramcap = x->gramcap ? 2 * x->gramcap : 1024;
		x->gram = pskd_xreallocarray(x->gram, x->gramcap,
		    sizeof(*x->gram));
	}
	x->gram[x->ngram].key = key;
	x->gram[x->ngram].item = item;
	x->gram[x->ngram].off = off;
	x->gram[x->ngram].len = (uint32_t)len;
	x->ngram++;
}

/* Whether two n-grams are the same words. */
static int
same_gram(const struct x_decon *x, const struct x_gram *a,
    const struct x_gram *b)
{
	return a->key == b->key && a->len == b->len && memcmp(x->pool.p +
	    a->off, x->pool.p + b->off, a->len) == 0;
}

/*
 * One item, its text normalised in x->ntext: that to the pool, its
 * distinct n-grams.
 */
static void
item_grams(struct x_decon *x, uint32_t item)
{
	const uint32_t *sv = (const uint32_t *)(void *)x->seps.p;
	size_t nw = x->ntext.len ? x->seps.len / 4 + 1 : 0, i, j, k, a, b, first;
	size_t mask;
	unsigned bits;
	uint64_t base = x->pool.len, key, h = 0;

	pskd_buf_add(&x->pool, x->ntext.p, x->ntext.len);
	first = x->ngram;
	for (i = 0; nw >= x->n && i + x->n <= nw; i++) {
		h = roll(x, h, i);
		key = x_fmix64(h);
		word(sv, nw, x->ntext.len, i, &a, &b);
		word(sv, nw, x->ntext.len, i + x->n - 1, &b, &b);
		gram_add(x, key, item, base + a, b - a);
	}
	/* Each n-gram of the item once: a set of them by key. */
	for (bits = 4; ((size_t)1 << bits) < 2 * (x->ngram - first) + 2;)
		bits++;
	if (((size_t)1 << bits) > x->dupcap) {
		free(x->dup);
		x->dupcap = (size_t)1 << bits;
		x->dup = pskd_xcalloc(x->dupcap, sizeof(*x->dup));
	}
	mask = ((size_t)1 << bits) - 1;
	memset(x->dup, 0, ((size_t)1 << bits) * sizeof(*x->dup));
	for (i = first, j = first; i < x->ngram; i++) {
		const struct x_gram *g = &x->gram[i];

		for (k = (size_t)(g->key >> (64 - bits)); x->dup[k] != 0;
		    k = (k + 1) & mask)
			if (same_gram(x, &x->gram[x->dup[k] - 1], g))
				break;
		if (x->dup[k] != 0)
			continue;
		x->gram[j] = *g;
		x->dup[k] = (uint32_t)(j + 1);
		j++;
	}
	x->ngram = j;
	x->item[item].ngrams = j - first;
}

void
x_decon_bench(struct x_decon *x, const char *name, size_t len)
{
	struct x_bench *bn;

	x->bench = pskd_xreallocarray(x->bench, x->nbench + 1,
	    sizeof(*x->bench));
	bn = &x->bench[x->nbench++];
	bn->name = pskd_xstrndup(name, len);
	bn->first = (uint32_t)x->nitem;
	bn->n = 0;
}

void
x_decon_item(struct x_decon *x, const char *id, size_t idlen,
    const unsigned char *text, size_t len)
{
	struct x_item *it;

	x->item = pskd_xreallocarray(x->item, x->nitem + 1, sizeof(*x->item));
	it = &x->item[x->nitem];
	memset(it, 0, sizeof(*it));
	it->bench = (uint32_t)(x->nbench - 1);
	it->id = pskd_xstrndup(id, idlen);
	(void)words(x, text, len);
	item_grams(x, (uint32_t)x->nitem);
	x->nitem++;
	x->bench[x->nbench - 1].n++;
}

int
x_decon_load(struct x_decon *x, const char *path, const char *fields,
    const char *idfield, struct pskd_error *e)
{
	struct pskd_reader r;
	struct pskd_doc d;
	const unsigned char *line;
	const char *base = strrchr(path, '/');
	char num[24];
	size_t len;
	int rc;

	if (pskd_doc_init(&d, fields, idfield, e) == -1)
		return -1;
	if (pskd_reader_open(&r, path) == -1) {
		pskd_error_set(e, 0, "%s: %s", path, strerror(errno));
		pskd_doc_free(&d);
		return -1;
	}
	base = base ? base + 1 : path;
	x_decon_bench(x, base, strcspn(base, "."));
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		if (pskd_doc_parse(&d, line, len) == -1) {
			pskd_error_set(e, 0, "%s:%llu: %s", r.name,
			    (unsigned long long)r.lineno, d.err);
			break;
		}
		snprintf(num, sizeof(num), "%llu", (unsigned long long)r.lineno);
		x_decon_item(x, d.id ? (const char *)d.id : num, d.id ?
		    d.idlen : strlen(num), d.text, d.textlen);
	}
	if (rc == -1)
		pskd_error_set(e, 0, "%s: %s", r.name, strerror(errno));
	pskd_reader_close(&r);
	pskd_doc_free(&d);
	return rc == 0 ? 0 : -1;
}

void
x_decon_ready(struct x_decon *x)
{
	size_t g, i, mask;

	for (x->slotbits = 4; ((size_t)1 << x->slotbits) < 2 * x->ngram + 2;)
		x->slotbits++;
	for (x->bitbits = 12; ((size_t)1 << x->bitbits) < 16 * x->ngram;)
		x->bitbits++;
	x->slot = pskd_xcalloc((size_t)1 << x->slotbits, sizeof(*x->slot));
	x->bits = pskd_xcalloc(((size_t)1 << x->bitbits) / 64 + 1,
	    sizeof(*x->bits));
	mask = ((size_t)1 << x->slotbits) - 1;
	for (g = 0; g < x->ngram; g++) {
		for (i = (size_t)(x->gram[g].key >> (64 - x->slotbits));
		    x->slot[i] != 0; i = (i + 1) & mask)
			;
		x->slot[i] = (uint32_t)g + 1;
		i = (size_t)(x->gram[g].key >> (64 - x->bitbits));
		x->bits[i / 64] |= (uint64_t)1 << (i % 64);
	}
}

/* A document's n-gram at words [i, i + n) with key: the items that have it. */
static void
probe(struct x_decon *x, uint64_t key, const unsigned char *p, size_t len,
    struct x_match *m)
{
	size_t i, mask = ((size_t)1 << x->slotbits) - 1;
	const struct x_gram *g;
	struct x_item *it;

	for (i = (size_t)(key >> (64 - x->slotbits)); x->slot[i] != 0;
	    i = (i + 1) & mask) {
		g = &x->gram[x->slot[i] - 1];
		if (g->key != key || g->len != len ||
		    memcmp(x->pool.p + g->off, p, len) != 0)
			continue;
		it = &x->item[g->item];
		if (m->gram == NULL) {
			m->item = g->item;
			m->gram = p;
			m->len = len;
		}
		if (it->stamp == x->docno)
			continue;
		it->stamp = x->docno;
		it->docs++;
		x->nfound++;
	}
}

#define AHEAD	32	/* n-grams between a prefetch and its use */

/* Whether the prefilter has key's bit. */
static inline int
maybe(const struct x_decon *x, uint64_t key)
{
	size_t bi = (size_t)(key >> (64 - x->bitbits));

	return x->bits[bi / 64] >> (bi % 64) & 1;
}

static inline void
bit_prefetch(const struct x_decon *x, uint64_t key)
{
	__builtin_prefetch(&x->bits[(size_t)(key >> (64 - x->bitbits)) / 64]);
}

/*
 * The keys of the text's n-grams first, then the prefilter read a
 * stride ahead of the test, and the table likewise for the n-grams it
 * let through (in text order, as one loop would).
 */
size_t
x_decon_doc(struct x_decon *x, const unsigned char *text, size_t len,
    struct x_match *m)
{
	const uint32_t *sv;
	size_t nw, ng, nc, i, a, b;
	uint64_t h = 0, *key;

	x->docno++;
	x->nfound = 0;
	m->gram = NULL;
	if (x->ngram == 0 || (nw = words(x, text, len)) < x->n)
		return 0;
	sv = (const uint32_t *)(void *)x->seps.p;
	ng = nw - x->n + 1;
	if (ng > x->keycap) {
		x->keycap = ng + ng / 2;
		x->key = pskd_xreallocarray(x->key, x->keycap,
		    sizeof(*x->key));
	}
	key = x->key;
	for (i = 0; i < ng; i++) {
		h = roll(x, h, i);
		key[i] = x_fmix64(h);
	}
	for (i = 0; i < ng && i < AHEAD; i++)
		bit_prefetch(x, key[i]);
	/* The candidates' indices, packed at the front of x->cand. */
	if (ng > x->candcap) {
		x->candcap = ng + ng / 2;
		x->cand = pskd_xreallocarray(x->cand, x->candcap,
		    sizeof(*x->cand));
	}
	for (i = nc = 0; i < ng; i++) {
		if (i + AHEAD < ng)
			bit_prefetch(x, key[i + AHEAD]);
		x->cand[nc] = i;
		nc += (size_t)maybe(x, key[i]);
	}
	for (i = 0; i < nc && i < AHEAD; i++)
		__builtin_prefetch(&x->slot[key[x->cand[i]] >>
		    (64 - x->slotbits)]);
	for (i = 0; i < nc; i++) {
		size_t c = x->cand[i];

		if (i + AHEAD < nc)
			__builtin_prefetch(&x->slot[key[x->cand[i + AHEAD]] >>
			    (64 - x->slotbits)]);
		word(sv, nw, x->ntext.len, c, &a, &b);
		word(sv, nw, x->ntext.len, c + x->n - 1, &b, &b);
		probe(x, key[c], x->ntext.p + a, b - a, m);
	}
	return x->nfound;
}

void
x_decon_free(struct x_decon *x)
{
	size_t i;

	for (i = 0; i < x->nbench; i++)
		free(x->bench[i].name);
	for (i = 0; i < x->nitem; i++)
		free(x->item[i].id);
	free(x->bench);
	free(x->item);
	free(x->gram);
	free(x->slot);
	free(x->bits);
	free(x->dup);
	free(x->wh);
	free(x->key);
	free(x->cand);
	free(x->nm.memo);
	pskd_buf_free(&x->pool);
	pskd_buf_free(&x->ntext);
	pskd_buf_free(&x->seps);
	memset(x, 0, sizeof(*x));
}
