/*
 * ngram.c - the word n-grams of the Gopher repetition rules, as datatrove
 * builds them: joined by a space for the most frequent n-gram (so an
 * n-gram is its sequence of words), joined by nothing for the duplicated
 * ones (so "ab c" and "a bc" are the same n-gram).  Each n-gram is hashed
 * as the string datatrove would build: a polynomial hash modulo 2^61 - 1
 * over its bytes, composed from the hashes of its words, so no string is
 * built; equal hashes are confirmed byte by byte.
 */
#include <stdlib.h>
#include <string.h>

#include "quality/quality.h"
#include "quality/hset.h"

#define MOD	(((uint64_t)1 << 61) - 1)
#define BASE	((uint64_t)0x5bd1e995 * 2654435761u % MOD)

struct entry {
	size_t		 first;		/* index of its first word */
	size_t		 count;
};

struct q_ngram_tab {
	uint64_t	*wh, *wp;	/* per word: hash, BASE^len */
	size_t		 cap;
	struct entry	*ent;
	size_t		 nent, entcap;
	struct q_hset	 set;
	unsigned	 have;		/* wh, wp are of words t->gen */
};

static uint64_t
mulmod(uint64_t a, uint64_t b)
{
	unsigned __int128 p = (unsigned __int128)a * b;
	uint64_t r = (uint64_t)(p & MOD) + (uint64_t)(p >> 61);

	return r >= MOD ? r - MOD : r;
}

static uint64_t
addmod(uint64_t a, uint64_t b)
{
	uint64_t r = a + b;

	return r >= MOD ? r - MOD : r;
}

static struct q_ngram_tab *
tab(struct q_text *t)
{
	struct q_ngram_tab *g = t->tab;
	const struct q_span *w;
	size_t i, k;
	uint64_t h, p;

	if (g == NULL) {
		g = t->tab = pskd_xcalloc(1, sizeof(*g));
		q_hset_init(&g->set, 1024);
	}
	if (g->have == t->gen)
		return g;
	if (g->cap < t->words.n) {
		g->cap = t->words.n;
		g->wh = pskd_xreallocarray(g->wh, g->cap, sizeof(*g->wh));
		g->wp = pskd_xreallocarray(g->wp, g->cap, sizeof(*g->wp));
	}
	for (i = 0; i < t->words.n; i++) {
		w = &t->words.v[i];
		h = 0;
		p = 1;
		for (k = 0; k < w->len; k++) {
			h = addmod(mulmod(h, BASE), t->p[w->off + k] + 1u);
			p = mulmod(p, BASE);
		}
		g->wh[i] = h;
		g->wp[i] = p;
	}
	g->have = t->gen;
	return g;
}

struct ctx {
	struct q_text	*t;
	struct q_ngram_tab *g;
	size_t		 i, n;
	int		 spaced;
};

/* Words i.. and j.. (n of them) as one string each, joined by nothing. */
static int
concat_eq(const struct q_text *t, size_t i, size_t j, size_t n)
{
	const struct q_span *a = &t->words.v[i], *b = &t->words.v[j];
	const struct q_span *aend = a + n, *bend = b + n;
	size_t ka = 0, kb = 0, m;

	while (a < aend && b < bend) {
		m = a->len - ka < b->len - kb ? a->len - ka : b->len - kb;
		if (memcmp(t->p + a->off + ka, t->p + b->off + kb, m) != 0)
			return 0;
		ka += m;
		kb += m;
		if (ka == a->len) {
			a++;
			ka = 0;
		}
		if (kb == b->len) {
			b++;
			kb = 0;
		}
	}
	return a == aend && b == bend;
}

static int
ngram_eq(void *arg, size_t e)
{
	struct ctx *c = arg;
	const struct q_text *t = c->t;
	size_t j = c->g->ent[e].first, k;
	const struct q_span *a, *b;

	if (!c->spaced)
		return concat_eq(t, c->i, j, c->n);
	for (k = 0; k < c->n; k++) {
		a = &t->words.v[c->i + k];
		b = &t->words.v[j + k];
		if (a->len != b->len || memcmp(t->p + a->off, t->p + b->off,
		    a->len) != 0)
			return 0;
	}
	return 1;
}

/* The hash of words i..i+n-1 joined by a space (spaced) or by nothing. */
static uint64_t
ngram_hash(const struct q_ngram_tab *g, size_t i, size_t n, int spaced)
{
	uint64_t h = g->wh[i];
	size_t k;

	for (k = 1; k < n; k++) {
		if (spaced)
			h = addmod(mulmod(h, BASE), ' ' + 1u);
		h = addmod(mulmod(h, g->wp[i + k]), g->wh[i + k]);
	}
	/* hset reserves 0 for empty slots */
	return h ^ ((uint64_t)spaced << 63) ^ ((uint64_t)n << 56);
}

static struct entry *
add(struct q_ngram_tab *g, size_t first)
{
	if (g->nent == g->entcap) {
		g->entcap = g->entcap ? 2 * g->entcap : 1024;
		g->ent = pskd_xreallocarray(g->ent, g->entcap,
		    sizeof(*g->ent));
	}
	g->ent[g->nent].first = first;
	g->ent[g->nent].count = 0;
	return &g->ent[g->nent++];
}

/* The code points of words i..i+n-1, and of the n-1 spaces if spaced. */
static uint64_t
cps(const struct q_text *t, size_t i, size_t n, int spaced)
{
	uint64_t c = spaced ? n - 1 : 0;
	size_t k;

	for (k = 0; k < n; k++)
		c += t->words.v[i + k].cps;
	return c;
}

uint64_t
q_top_ngram(struct q_text *t, size_t n)
{
	struct q_ngram_tab *g = tab(t);
	struct ctx c = { t, g, 0, n, 1 };
	struct entry *best = NULL, *en;
	size_t *slot, bestfirst = 0, bestcount = 0;
	int found;

	if (t->words.n < n)
		return 0;
	q_hset_reset(&g->set, t->words.n);
	g->nent = 0;
	for (c.i = 0; c.i + n <= t->words.n; c.i++) {
		slot = q_hset_find(&g->set, ngram_hash(g, c.i, n, 1), ngram_eq,
		    &c, &found);
		if (!found) {
			*slot = g->nent;
			add(g, c.i);
		}
		en = &g->ent[*slot];
		en->count++;
		/* Counter.most_common(1): the first to reach the top count */
		if (en->count > bestcount) {
			bestcount = en->count;
			bestfirst = en->first;
			best = en;
		} else if (en->count == bestcount && en->first < bestfirst) {
			bestfirst = en->first;
			best = en;
		}
	}
	return best ? bestcount * cps(t, bestfirst, n, 1) : 0;
}

uint64_t
q_dup_ngrams(struct q_text *t, size_t n)
{
	struct q_ngram_tab *g = tab(t);
	struct ctx c = { t, g, 0, n, 0 };
	uint64_t dup = 0;
	size_t *slot;
	int found;

	q_hset_reset(&g->set, t->words.n);
	g->nent = 0;
	for (c.i = 0; c.i + n <= t->words.n;) {
		slot = q_hset_find(&g->set, ngram_hash(g, c.i, n, 0), ngram_eq,
		    &c, &found);
		if (found) {
			dup += cps(t, c.i, n, 0);
			c.i += n;
		} else {
			*slot = g->nent;
			add(g, c.i);
			c.i++;
		}
	}
	return dup;
}

void
q_ngram_free(struct q_text *t)
{
	struct q_ngram_tab *g = t->tab;

	if (g == NULL)
		return;
	free(g->wh);
	free(g->wp);
	free(g->ent);
	q_hset_free(&g->set);
	free(g);
	t->tab = NULL;
}
