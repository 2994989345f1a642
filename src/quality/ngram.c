/*
 * ngram.c - the word n-grams of the Gopher repetition rules, as datatrove
 * builds them: joined by a space for the most frequent n-gram (so an
 * n-gram is its sequence of words), joined by nothing for the duplicated
 * ones (so "ab c" and "a bc" are the same n-gram).
 *
 * Once a document: each word gets a number, the same for the same bytes
 * (a table of the distinct words), so a spaced n-gram is a sequence of
 * numbers; and the words are copied one after the other, so a joined
 * n-gram is a string in one piece, hashed as it is (XXH3) and compared
 * with memcmp.  Every hash only finds candidates and every match is
 * confirmed, numbers for numbers or byte for byte, so no collision,
 * natural or crafted, changes a count; and since no n-gram's hash is made
 * from its words' hashes, no algebraic family of strings collides by
 * construction (as the Thue-Morse strings do under a polynomial hash
 * modulo 2^64, for every base).
 *
 * Most n-grams are seen once, and a pass need not look them up: it looks
 * up only the candidates, the n-grams that a cheap exact test cannot show
 * to be seen once (see q_top_ngram and q_dup_ngrams).  A pass is one scan
 * of its candidates against an open-addressing table of 8-byte slots,
 * reused by every pass and every document and emptied by a new epoch
 * rather than cleared.
 */
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "quality/quality.h"

/* A slot: epoch (8 bits; another is empty), tag (24 bits), value (32). */
#define EPOCH(v)	((unsigned)((v) >> 56))
#define TAG(h)		((uint64_t)((h) & 0xffffff) << 32)
#define TAGOF(v)	((v) & ((uint64_t)0xffffff << 32))

struct q_ngram_tab {
	unsigned	 have;		/* the arrays are of words t->gen */
	size_t		 cap;		/* of the arrays by word */
	/*
	 * By word i: its number (id), what repeats at it (flags); of words
	 * 0..i-1: their bytes (catl) and code points (cpsum).
	 */
	uint32_t	*id;
	unsigned char	*flags;
	uint64_t	*catl, *cpsum;
	unsigned char	*s;		/* the words joined by nothing, + 16 */
	size_t		 scap;
	uint32_t	*first, *wc;	/* by number: first position, count */
	/* a pass: its candidates, and counts by first position */
	uint32_t	*cand, *count;
	size_t		 ncand;
	size_t		 candw;		/* cand holds the dup candidates of n */
	size_t		 keysw;		/* flags has the keys of n-grams of n */
	int		 bigrams;	/* flags has F_BIGRAM */
	uint64_t	 top2count;	/* of the bigram pass */
	size_t		 top2first;
	uint64_t	*slots;
	size_t		 slotcap, mask;
	unsigned	 shift, epoch;
};

/*
 * flags: the 8 (16) bytes from a word on, the words joined, are at another
 * word's start too; the bigram there is seen elsewhere too.
 */
#define F_KEY8		1
#define F_KEY16		2
#define F_BIGRAM	4

/*
 * The table, for up to n entries: at most half full, its old slots
 * emptied by the next epoch (cleared only when the epochs wrap or it
 * grows).
 */
static void
table(struct q_ngram_tab *g, size_t n)
{
	size_t cap = 64;
	unsigned bits = 6;

	while (cap < 2 * n) {
		cap *= 2;
		bits++;
	}
	if (cap > g->slotcap) {
		free(g->slots);
		g->slots = pskd_xcalloc(cap, sizeof(*g->slots));
		g->slotcap = cap;
		g->epoch = 0;
	}
	if (++g->epoch == 256) {
		memset(g->slots, 0, g->slotcap * sizeof(*g->slots));
		g->epoch = 1;
	}
	g->mask = cap - 1;
	g->shift = 64 - bits;
}

static inline size_t
slot_of(const struct q_ngram_tab *g, uint64_t h)
{
	return (size_t)((h * 0x9e3779b97f4a7c15ull) >> g->shift);
}

static inline uint64_t
slot_new(const struct q_ngram_tab *g, uint64_t h, size_t value)
{
	return (uint64_t)g->epoch << 56 | TAG(h) | (uint64_t)value;
}

/* A hash of x, its bits spread (for keys made of text or numbers). */
static inline uint64_t
mix(uint64_t x)
{
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ull;
	return x ^ x >> 32;
}

static inline uint64_t
load64(const unsigned char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return x;
}

static inline uint32_t
load32(const unsigned char *p)
{
	uint32_t x;

	memcpy(&x, p, 4);
	return x;
}

/*
 * A word's bytes, as one number with its length when it has 16 bytes or
 * fewer (overlapping loads; *b the second half), so two such words are
 * equal when their numbers are.
 */
static inline uint64_t
word_key(const unsigned char *p, size_t n, uint64_t *b)
{
	if (n >= 8) {
		*b = load64(p + n - 8);
		return load64(p);
	}
	*b = n;
	if (n >= 4)
		return load32(p) | (uint64_t)load32(p + n - 4) << 32;
	return p[0] | (uint64_t)p[n / 2] << 8 | (uint64_t)p[n - 1] << 16;
}

/*
 * Each word's number (g->id), the first position and count of each
 * number: a table of the distinct words, confirmed byte by byte.
 */
static void
number(struct q_text *t, struct q_ngram_tab *g)
{
	const struct q_span *w = t->words.v, *f;
	size_t i, k, n = t->words.n, nw = 0, len;
	uint64_t a, b, fa, fb, h, tag, v;
	const unsigned char *p;

	table(g, n);
	for (i = 0; i < n; i++) {
		p = t->p + w[i].off;
		len = w[i].len;
		if (len <= 16) {
			a = word_key(p, len, &b);
			h = mix(a ^ mix(b ^ len));
		} else
			h = XXH3_64bits(p, len);
		tag = TAG(h);
		for (k = slot_of(g, h);; k = (k + 1) & g->mask) {
			v = g->slots[k];
			if (EPOCH(v) != g->epoch) {
				g->slots[k] = slot_new(g, h, nw);
				g->first[nw] = (uint32_t)i;
				g->wc[nw] = 1;
				g->id[i] = (uint32_t)nw++;
				break;
			}
			if (TAGOF(v) != tag)
				continue;
			f = &w[g->first[(uint32_t)v]];
			if (f->len != len)
				continue;
			if (len <= 16) {
				fa = word_key(t->p + f->off, len, &fb);
				if (fa != a || fb != b)
					continue;
			} else if (memcmp(t->p + f->off, p, len) != 0)
				continue;
			g->id[i] = (uint32_t)v;
			g->wc[(uint32_t)v]++;
			break;
		}
	}
}

static void *
grow(void *p, size_t n, size_t size)
{
	return pskd_xreallocarray(p, n, size);
}

/* Copy n bytes (1 or more) from p to q, with overlapping moves. */
static inline void
copy(unsigned char *q, const unsigned char *p, size_t n)
{
	uint64_t a, b;
	uint32_t x, y;

	if (n > 16)
		memcpy(q, p, n);
	else if (n >= 8) {
		a = load64(p);
		b = load64(p + n - 8);
		memcpy(q, &a, 8);
		memcpy(q + n - 8, &b, 8);
	} else if (n >= 4) {
		x = load32(p);
		y = load32(p + n - 4);
		memcpy(q, &x, 4);
		memcpy(q + n - 4, &y, 4);
	} else {
		q[0] = p[0];
		q[n / 2] = p[n / 2];
		q[n - 1] = p[n - 1];
	}
}

/* The arrays of the words of t, once a word list. */
static struct q_ngram_tab *
tab(struct q_text *t)
{
	struct q_ngram_tab *g = t->tab;
	const struct q_span *w = t->words.v;
	size_t i, n = t->words.n;

	if (g == NULL)
		g = t->tab = pskd_xcalloc(1, sizeof(*g));
	if (g->have == t->gen)
		return g;
	if (g->cap < n + 1) {
		g->cap = n + 1;
		g->id = grow(g->id, g->cap, sizeof(*g->id));
		g->flags = grow(g->flags, g->cap, sizeof(*g->flags));
		g->first = grow(g->first, g->cap, sizeof(*g->first));
		g->wc = grow(g->wc, g->cap, sizeof(*g->wc));
		g->cand = grow(g->cand, g->cap, sizeof(*g->cand));
		g->count = grow(g->count, g->cap, sizeof(*g->count));
		g->catl = grow(g->catl, g->cap, sizeof(*g->catl));
		g->cpsum = grow(g->cpsum, g->cap, sizeof(*g->cpsum));
	}
	g->catl[0] = g->cpsum[0] = 0;
	for (i = 0; i < n; i++) {
		g->catl[i + 1] = g->catl[i] + w[i].len;
		g->cpsum[i + 1] = g->cpsum[i] + w[i].cps;
	}
	if (g->scap < g->catl[n] + 16) {
		g->scap = g->catl[n] + 16;
		free(g->s);
		g->s = pskd_xmalloc(g->scap);
	}
	for (i = 0; i < n; i++)
		copy(g->s + g->catl[i], t->p + w[i].off, w[i].len);
	memset(g->s + g->catl[n], 0, 16);
	number(t, g);
	memset(g->flags, 0, n);
	g->bigrams = 0;
	g->candw = g->keysw = 0;
	g->have = t->gen;
	return g;
}

/*
 * The flags F_KEY8 and F_KEY16 for the n-grams of n words (and more): the
 * first 8 (16) bytes from each word on, compared with the other words'
 * (a table of each).  Only the n-grams of fewer than 16 bytes look at
 * F_KEY8, and one of more words has more bytes: so only the words where
 * the n-gram has fewer are compared for it.
 */
static void
keys(struct q_ngram_tab *g, size_t words, size_t n)
{
	size_t i, j, k, end = g->catl[words], m = words - n + 1;
	const unsigned char *p;
	uint64_t a, b, h, tag, v;
	unsigned bit;

	for (i = 0; i < words; i++)
		g->flags[i] &= (unsigned char)~(F_KEY8 | F_KEY16);
	for (bit = F_KEY8; bit <= F_KEY16; bit <<= 1) {
		table(g, words);
		for (i = 0; i < words && g->catl[i] + 8 * bit <= end; i++) {
			if (bit == F_KEY8 && (i >= m ||
			    g->catl[i + n] - g->catl[i] >= 16))
				continue;
			p = g->s + g->catl[i];
			a = load64(p);
			b = bit == F_KEY16 ? load64(p + 8) : 0;
			h = mix(a ^ mix(b));
			tag = TAG(h);
			for (k = slot_of(g, h);; k = (k + 1) & g->mask) {
				v = g->slots[k];
				if (EPOCH(v) != g->epoch) {
					g->slots[k] = slot_new(g, h, i);
					break;
				}
				j = (uint32_t)v;
				p = g->s + g->catl[j];
				if (TAGOF(v) == tag && load64(p) == a &&
				    (bit == F_KEY8 || load64(p + 8) == b)) {
					g->flags[i] |= (unsigned char)bit;
					g->flags[j] |= (unsigned char)bit;
					break;
				}
			}
		}
	}
	g->keysw = n;
}

/* Words i.. and j.. (n of them), number for number. */
static inline int
ids_eq(const struct q_ngram_tab *g, size_t i, size_t j, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (g->id[i + k] != g->id[j + k])
			return 0;
	return 1;
}

/*
 * A pass of counts over the spaced n-grams at the candidates of g->cand,
 * hashed by their words' numbers: the most frequent,
 * with F_BIGRAM set at every n-gram seen twice (n 2).  *first is the first
 * position of the top one (ties: the first to appear); the count is
 * returned, 1 when nothing repeats.
 */
static uint64_t
counts(struct q_ngram_tab *g, size_t n, size_t *first)
{
	size_t x, i, j, k, f, bestfirst = 0;
	uint64_t h, tag, v, bestcount = 0;

	table(g, g->ncand);
	for (x = 0; x < g->ncand; x++) {
		i = g->cand[x];
		for (h = n, k = 0; k < n; k++)
			h = (h ^ g->id[i + k]) * 0x9e3779b97f4a7c15ull;
		h = mix(h);
		tag = TAG(h);
		for (k = slot_of(g, h);; k = (k + 1) & g->mask) {
			v = g->slots[k];
			if (EPOCH(v) != g->epoch) {
				g->slots[k] = slot_new(g, h, i);
				g->count[i] = 0;
				f = i;
				break;
			}
			j = (uint32_t)v;
			if (TAGOF(v) == tag && ids_eq(g, j, i, n)) {
				f = j;
				if (n == 2) {
					g->flags[i] |= F_BIGRAM;
					g->flags[j] |= F_BIGRAM;
				}
				break;
			}
		}
		g->count[f]++;
		/* Counter.most_common(1): the first to reach the top count */
		if (g->count[f] > bestcount || (g->count[f] == bestcount &&
		    f < bestfirst)) {
			bestcount = g->count[f];
			bestfirst = f;
		}
	}
	if (bestcount <= 1) {	/* all once: the first n-gram */
		bestcount = 1;
		bestfirst = 0;
	}
	*first = bestfirst;
	return bestcount;
}

/*
 * The top bigram, and F_BIGRAM: a bigram seen twice is of words seen
 * twice.
 */
static void
bigrams(struct q_ngram_tab *g, size_t n)
{
	size_t i;

	g->ncand = 0;
	for (i = 0; i + 1 < n; i++)
		if (g->wc[g->id[i]] > 1 && g->wc[g->id[i + 1]] > 1)
			g->cand[g->ncand++] = (uint32_t)i;
	g->candw = 0;
	g->top2count = counts(g, 2, &g->top2first);
	g->bigrams = 1;
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

/*
 * Only an n-gram seen twice can be the top one when one is: one whose
 * words are each seen twice (n 1), whose first and last bigrams are.
 */
uint64_t
q_top_ngram(struct q_text *t, size_t n, uint64_t *topcount)
{
	struct q_ngram_tab *g;
	size_t i, m, first;
	uint64_t count;

	*topcount = 0;
	if (t->words.n < n || too_many(t))
		return 0;
	g = tab(t);
	m = t->words.n - n + 1;
	if (n >= 2 && !g->bigrams)
		bigrams(g, t->words.n);
	if (n == 2) {
		count = g->top2count;
		first = g->top2first;
	} else {
		g->ncand = 0;
		for (i = 0; i < m; i++)
			if (n == 1 ? g->wc[g->id[i]] > 1 :
			    (g->flags[i] & g->flags[i + n - 2] & F_BIGRAM))
				g->cand[g->ncand++] = (uint32_t)i;
		g->candw = 0;
		count = counts(g, n, &first);
	}
	*topcount = count;
	return count * (g->cpsum[first + n] - g->cpsum[first] + n - 1);
}

/*
 * Can the n-gram at i be seen elsewhere?  Not when its first 8 (16)
 * bytes, all in it, are at no other word's start.
 */
static inline int
dup_candidate(const struct q_ngram_tab *g, size_t i, size_t n)
{
	uint64_t len = g->catl[i + n] - g->catl[i];

	if (len >= 16)
		return g->flags[i] & F_KEY16;
	if (len >= 8)
		return g->flags[i] & F_KEY8;
	return 1;
}

/*
 * The candidates are the n-grams that may be seen twice: an n-gram seen
 * once, at a position the scan reaches, is one it adds and never finds
 * again, so the scan goes past it as if it had.  A candidate of n+1 words
 * is one of n: the list of a shorter n-gram is cut down.
 */
uint64_t
q_dup_ngrams(struct q_text *t, size_t n, double frac)
{
	struct q_ngram_tab *g;
	uint64_t dup = 0, h, tag, v, len;
	size_t i, j, k, m, x, y, check;

	if (t->words.n < n || too_many(t))
		return 0;
	g = tab(t);
	if (g->keysw == 0 || g->keysw > n)
		keys(g, t->words.n, n);
	m = t->words.n - n + 1;
	if (g->candw == 0 || g->candw > n) {
		for (g->ncand = 0, i = 0; i < m; i++)
			if (dup_candidate(g, i, n))
				g->cand[g->ncand++] = (uint32_t)i;
	} else {
		for (x = y = 0; x < g->ncand && g->cand[x] < m; x++)
			if (dup_candidate(g, g->cand[x], n))
				g->cand[y++] = g->cand[x];
		g->ncand = y;
	}
	g->candw = n;
	table(g, g->ncand);
	for (x = 0, check = 0; x < g->ncand;) {
		i = g->cand[x];
		if (x >= check) {
			/*
			 * What is left adds at most its code points: when that
			 * cannot pass frac, the rest cannot fail the rule.
			 */
			if (q_ratio((double)(dup + g->cpsum[t->words.n] -
			    g->cpsum[i]), (double)t->cps) <= frac)
				return dup;
			check = x + 64;
		}
		len = g->catl[i + n] - g->catl[i];
		h = XXH3_64bits(g->s + g->catl[i], len);
		tag = TAG(h);
		for (k = slot_of(g, h);; k = (k + 1) & g->mask) {
			v = g->slots[k];
			if (EPOCH(v) != g->epoch) {
				g->slots[k] = slot_new(g, h, i);
				x++;
				break;
			}
			j = (uint32_t)v;
			if (TAGOF(v) == tag && g->catl[j + n] - g->catl[j] ==
			    len && memcmp(g->s + g->catl[j], g->s + g->catl[i],
			    len) == 0) {
				dup += g->cpsum[i + n] - g->cpsum[i];
				while (x < g->ncand && g->cand[x] < i + n)
					x++;
				break;
			}
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
	free(g->id);
	free(g->flags);
	free(g->first);
	free(g->wc);
	free(g->cand);
	free(g->count);
	free(g->catl);
	free(g->cpsum);
	free(g->s);
	free(g->slots);
	free(g);
	t->tab = NULL;
}
