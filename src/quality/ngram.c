/*
 * ngram.c - the word n-grams of the Gopher repetition rules, as datatrove
 * builds them: joined by a space for the most frequent n-gram (so an
 * n-gram is its sequence of words), joined by nothing for the duplicated
 * ones (so "ab c" and "a bc" are the same n-gram).  Each n-gram is hashed
 * as the string datatrove would build: a polynomial hash modulo 2^61 - 1
 * over its bytes, composed from the hashes of its words, so no string is
 * built; equal hashes are confirmed byte by byte.  (The spaced n-grams,
 * whose identity is their sequence of words, are hashed over the words'
 * own hashes instead.)  One open-addressing table of n-gram hashes serves
 * every n, its slots told apart by a generation, so a pass clears nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "quality/quality.h"
#include <xxhash.h>

#define MOD	(((uint64_t)1 << 61) - 1)
#define BASE	((uint64_t)0x5bd1e995 * 2654435761u % MOD)

struct slot {
	uint64_t	 h;
	size_t		 first;		/* index of its first word */
	uint32_t	 count;
	uint32_t	 gen;		/* the pass it is of; other: empty */
};

struct q_ngram_tab {
	/*
	 * Per word i: the hash of the sequence of words 0..i-1 (sp), of
	 * their bytes joined by nothing (cat) and that many bytes (catl);
	 * BASE^k for k up to the longest n-gram's bytes (pw).
	 */
	uint64_t	*sp, *cat, *pw;
	size_t		*catl;
	size_t		 cap, pwcap;
	struct slot	*slots;
	size_t		 mask;
	uint32_t	 gen;
	unsigned	 have;		/* the arrays are of words t->gen */
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

static uint64_t
submod(uint64_t a, uint64_t b)
{
	return a >= b ? a - b : a + MOD - b;
}

static struct q_ngram_tab *
tab(struct q_text *t)
{
	struct q_ngram_tab *g = t->tab;
	const struct q_span *w;
	size_t i, k, n = t->words.n, span, maxspan = Q_NGRAM_MAX;
	uint64_t hs = 0, hc = 0;

	if (g == NULL)
		g = t->tab = pskd_xcalloc(1, sizeof(*g));
	if (g->have == t->gen)
		return g;
	if (g->cap < n + 1) {
		g->cap = n + 1;
		g->sp = pskd_xreallocarray(g->sp, g->cap, sizeof(*g->sp));
		g->cat = pskd_xreallocarray(g->cat, g->cap, sizeof(*g->cat));
		g->catl = pskd_xreallocarray(g->catl, g->cap, sizeof(*g->catl));
	}
	g->catl[0] = 0;
	for (i = 0; i < n; i++) {
		g->sp[i] = hs;
		g->cat[i] = hc;
		w = &t->words.v[i];
		hs = addmod(mulmod(hs, BASE), XXH3_64bits(t->p + w->off,
		    w->len) >> 3);
		for (k = 0; k < w->len; k++)
			hc = addmod(mulmod(hc, BASE), t->p[w->off + k] + 1u);
		g->catl[i + 1] = g->catl[i] + w->len;
	}
	g->sp[n] = hs;
	g->cat[n] = hc;
	for (i = 0; i < n; i++) {	/* the longest n-gram's bytes */
		k = i + Q_NGRAM_MAX < n ? i + Q_NGRAM_MAX : n;
		span = g->catl[k] - g->catl[i];
		maxspan = span > maxspan ? span : maxspan;
	}
	if (g->pwcap < maxspan + 1) {
		g->pwcap = maxspan + 1;
		g->pw = pskd_xreallocarray(g->pw, g->pwcap, sizeof(*g->pw));
	}
	g->pw[0] = 1;
	for (k = 1; k <= maxspan; k++)
		g->pw[k] = mulmod(g->pw[k - 1], BASE);
	g->have = t->gen;
	return g;
}

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

/* Words i.. and j.. (n of them), word for word. */
static int
words_eq(const struct q_text *t, size_t i, size_t j, size_t n)
{
	const struct q_span *a = &t->words.v[i], *b = &t->words.v[j];
	size_t k;

	for (k = 0; k < n; k++)
		if (a[k].len != b[k].len || memcmp(t->p + a[k].off,
		    t->p + b[k].off, a[k].len) != 0)
			return 0;
	return 1;
}

/* The hash of words i..i+n-1: as a sequence (spaced) or their bytes. */
static uint64_t
ngram_hash(const struct q_ngram_tab *g, size_t i, size_t n, int spaced)
{
	if (spaced)
		return submod(g->sp[i + n], mulmod(g->sp[i], g->pw[n]));
	return submod(g->cat[i + n], mulmod(g->cat[i],
	    g->pw[g->catl[i + n] - g->catl[i]]));
}

/* A new pass over m n-grams: the slots emptied by a new generation. */
static void
pass(struct q_ngram_tab *g, size_t m)
{
	size_t cap = 64;

	while (cap < 2 * m)
		cap *= 2;
	if (g->slots == NULL || cap > g->mask + 1 ||
	    (cap * 8 < g->mask + 1 && g->mask + 1 > 4096)) {
		free(g->slots);
		g->slots = pskd_xcalloc(cap, sizeof(*g->slots));
		g->mask = cap - 1;
		g->gen = 0;
	}
	if (++g->gen == 0) {	/* wrapped: clear for real */
		memset(g->slots, 0, (g->mask + 1) * sizeof(*g->slots));
		g->gen = 1;
	}
}

/* The slot of n-gram i (new: count 0, first i). */
static struct slot *
find(struct q_text *t, struct q_ngram_tab *g, size_t i, size_t n, int spaced)
{
	uint64_t h = ngram_hash(g, i, n, spaced);
	size_t k = (size_t)(h * 0x9e3779b97f4a7c15ull >> 20) & g->mask;
	struct slot *s;

	for (;; k = (k + 1) & g->mask) {
		s = &g->slots[k];
		if (s->gen != g->gen) {
			s->gen = g->gen;
			s->h = h;
			s->first = i;
			s->count = 0;
			return s;
		}
		if (s->h == h && (spaced ? words_eq(t, s->first, i, n) :
		    concat_eq(t, s->first, i, n)))
			return s;
	}
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
	struct q_ngram_tab *g;
	struct slot *s;
	size_t i, bestfirst = 0, bestcount = 0;

	if (t->words.n < n)
		return 0;
	g = tab(t);
	pass(g, t->words.n - n + 1);
	for (i = 0; i + n <= t->words.n; i++) {
		s = find(t, g, i, n, 1);
		s->count++;
		/* Counter.most_common(1): the first to reach the top count */
		if (s->count > bestcount || (s->count == bestcount &&
		    s->first < bestfirst)) {
			bestcount = s->count;
			bestfirst = s->first;
		}
	}
	return bestcount * cps(t, bestfirst, n, 1);
}

uint64_t
q_dup_ngrams(struct q_text *t, size_t n)
{
	struct q_ngram_tab *g;
	struct slot *s;
	uint64_t dup = 0;
	size_t i;

	if (t->words.n < n)
		return 0;
	g = tab(t);
	pass(g, t->words.n - n + 1);
	for (i = 0; i + n <= t->words.n;) {
		s = find(t, g, i, n, 0);
		if (s->first != i) {
			dup += cps(t, i, n, 0);
			i += n;
		} else
			i++;
	}
	return dup;
}

void
q_ngram_free(struct q_text *t)
{
	struct q_ngram_tab *g = t->tab;

	if (g == NULL)
		return;
	free(g->sp);
	free(g->cat);
	free(g->catl);
	free(g->pw);
	free(g->slots);
	free(g);
	t->tab = NULL;
}
