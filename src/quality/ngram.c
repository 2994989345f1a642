/*
 * ngram.c - the word n-grams of the Gopher repetition rules, as datatrove
 * builds them: joined by a space for the most frequent n-gram (so an
 * n-gram is its sequence of words), joined by nothing for the duplicated
 * ones (so "ab c" and "a bc" are the same n-gram).  Each n-gram is hashed
 * as the string datatrove would build: a polynomial hash modulo 2^61 - 1
 * over its bytes, composed from the hashes of its words, so no string is
 * built; equal hashes are confirmed byte by byte.  (The spaced n-grams,
 * whose identity is their sequence of words, are hashed over the words'
 * own hashes instead.)  One open-addressing table of 8-byte slots serves
 * every pass.
 */
#include <stdlib.h>
#include <string.h>

#include "quality/quality.h"

#define MOD	(((uint64_t)1 << 61) - 1)
#define BASE	((uint64_t)0x5bd1e995 * 2654435761u % MOD)

struct q_ngram_tab {
	/*
	 * Per word i: the hash of the sequence of words 0..i-1 (sp), of
	 * their bytes joined by nothing (cat) and that many bytes (catl);
	 * BASE^k for k up to the longest n-gram's bytes (pw).
	 */
	uint64_t	*sp, *cat, *pw;
	size_t		*catl;
	size_t		 cap, pwcap;
	/*
	 * A pass: each n-gram's hash (h) and count (count, by its first
	 * position); the table of n-grams seen, 8 bytes a slot (see find)
	 * so a document's table stays in the cache.
	 */
	uint64_t	*h;
	uint32_t	*count;
	uint64_t	*slots;
	size_t		 mask, slotcap, hcap;
	unsigned	 have;		/* the arrays are of words t->gen */
};

/*
 * Modulo the prime 2^61 - 1, not 2^64: with 2^64, known strings (the
 * Thue-Morse ones, and their concatenations) collide for every base, and a
 * text made of them would make every probe compare.
 */
static inline uint64_t
mulmod(uint64_t a, uint64_t b)
{
	unsigned __int128 p = (unsigned __int128)a * b;
	uint64_t r = (uint64_t)(p & MOD) + (uint64_t)(p >> 61);

	return r >= MOD ? r - MOD : r;
}

static inline uint64_t
addmod(uint64_t a, uint64_t b)
{
	uint64_t r = a + b;

	return r >= MOD ? r - MOD : r;
}

static inline uint64_t
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
	uint64_t hs = 0, hc = 0, hw;

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
	for (i = 0; i < n; i++) {	/* the longest n-gram's bytes */
		k = i + Q_NGRAM_MAX < n ? i + Q_NGRAM_MAX : n;
		span = t->words.v[k - 1].off + t->words.v[k - 1].len -
		    t->words.v[i].off;
		maxspan = span > maxspan ? span : maxspan;
	}
	if (g->pwcap < maxspan + 1) {
		g->pwcap = maxspan + 1;
		g->pw = pskd_xreallocarray(g->pw, g->pwcap, sizeof(*g->pw));
	}
	g->pw[0] = 1;
	for (k = 1; k <= maxspan; k++)
		g->pw[k] = mulmod(g->pw[k - 1], BASE);
	for (i = 0; i < n; i++) {
		g->sp[i] = hs;
		g->cat[i] = hc;
		w = &t->words.v[i];
		/* the word's own hash: a short chain, words overlap */
		for (hw = 0, k = 0; k < w->len; k++)
			hw = addmod(mulmod(hw, BASE), t->p[w->off + k] + 1u);
		hc = addmod(mulmod(hc, g->pw[w->len]), hw);
		hs = addmod(mulmod(hs, BASE), hw);
		g->catl[i + 1] = g->catl[i] + w->len;
	}
	g->sp[n] = hs;
	g->cat[n] = hc;
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

static inline size_t
slot_of(const struct q_ngram_tab *g, uint64_t h)
{
	return (size_t)(h * 0x9e3779b97f4a7c15ull >> 32) & g->mask;
}

/*
 * A new pass over the m n-grams of n words: the table emptied, and every
 * n-gram's hash computed first, in a loop without a chain of dependences.
 */
static void
pass(struct q_ngram_tab *g, size_t m, size_t n, int spaced, int counts)
{
	size_t cap = 64, i;
	uint64_t pwn = g->pw[n];

	/* the table's first cap slots: cleared, and all the probes see */
	while (cap < 2 * m)
		cap *= 2;
	if (cap > g->slotcap) {
		free(g->slots);
		g->slots = pskd_xmalloc(cap * sizeof(*g->slots));
		g->slotcap = cap;
	}
	g->mask = cap - 1;
	memset(g->slots, 0, cap * sizeof(*g->slots));
	if (g->hcap < m) {
		g->hcap = m;
		g->h = pskd_xreallocarray(g->h, m, sizeof(*g->h));
		g->count = pskd_xreallocarray(g->count, m, sizeof(*g->count));
	}
	if (counts)
		memset(g->count, 0, m * sizeof(*g->count));
	if (spaced)
		for (i = 0; i < m; i++)
			g->h[i] = submod(g->sp[i + n], mulmod(g->sp[i], pwn));
	else
		for (i = 0; i < m; i++)
			g->h[i] = submod(g->cat[i + n], mulmod(g->cat[i],
			    g->pw[g->catl[i + n] - g->catl[i]]));
}

/*
 * The first position of n-gram i (its hash in g->h[i]): i when new.  A
 * slot is the position + 1 (0: empty) and, above, 32 bits of the hash.
 */
static inline size_t
find(struct q_text *t, struct q_ngram_tab *g, size_t i, size_t n, int spaced)
{
	uint64_t h = g->h[i], tag = h << 32, v;
	size_t k = slot_of(g, h), j;

	for (;; k = (k + 1) & g->mask) {
		v = g->slots[k];
		if (v == 0) {
			g->slots[k] = tag | (uint64_t)(i + 1);
			return i;
		}
		j = (size_t)(v & 0xffffffff) - 1;
		if ((v ^ tag) >> 32 == 0 && g->h[j] == h && (spaced ?
		    words_eq(t, j, i, n) : concat_eq(t, j, i, n)))
			return j;
	}
}

/* Prefetch the slot of n-gram i, a few n-grams ahead of the probes. */
static inline void
ahead(const struct q_ngram_tab *g, size_t i, size_t m)
{
	if (i < m)
		__builtin_prefetch(&g->slots[slot_of(g, g->h[i])], 1);
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

/* Positions are 32-bit in the table: a longer text is judged in C. */
static int
too_many(const struct q_text *t)
{
	return t->words.n >= UINT32_MAX;
}

uint64_t
q_longest_ngram(const struct q_text *t, size_t n)
{
	uint64_t c = 0, best;
	size_t i;

	if (t->words.n < n)
		return 0;
	for (i = 0; i < n; i++)
		c += t->words.v[i].cps;
	for (best = c, i = n; i < t->words.n; i++) {
		c += t->words.v[i].cps - t->words.v[i - n].cps;
		best = c > best ? c : best;
	}
	return best + n - 1;
}

uint64_t
q_top_ngram(struct q_text *t, size_t n, uint64_t *topcount)
{
	struct q_ngram_tab *g;
	size_t i, m, f, bestfirst = 0, bestcount = 0;

	*topcount = 0;
	if (t->words.n < n || too_many(t))
		return 0;
	g = tab(t);
	m = t->words.n - n + 1;
	pass(g, m, n, 1, 1);
	for (i = 0; i < m; i++) {
		ahead(g, i + 8, m);
		f = find(t, g, i, n, 1);
		g->count[f]++;
		/* Counter.most_common(1): the first to reach the top count */
		if (g->count[f] > bestcount || (g->count[f] == bestcount &&
		    f < bestfirst)) {
			bestcount = g->count[f];
			bestfirst = f;
		}
	}
	*topcount = bestcount;
	return bestcount * cps(t, bestfirst, n, 1);
}

uint64_t
q_dup_ngrams(struct q_text *t, size_t n)
{
	struct q_ngram_tab *g;
	uint64_t dup = 0;
	size_t i, m;

	if (t->words.n < n || too_many(t))
		return 0;
	g = tab(t);
	m = t->words.n - n + 1;
	pass(g, m, n, 0, 0);
	for (i = 0; i < m;) {
		ahead(g, i + 8, m);
		if (find(t, g, i, n, 0) != i) {
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
	free(g->h);
	free(g->count);
	free(g);
	t->tab = NULL;
}
