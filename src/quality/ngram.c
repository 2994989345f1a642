/*
 * ngram.c - the word n-grams of the Gopher repetition rules, as datatrove
 * builds them: joined by a space for the most frequent n-gram (so an
 * n-gram is its sequence of words), joined by nothing for the duplicated
 * ones (so "ab c" and "a bc" are the same n-gram).
 *
 * Once a document: the words are copied one after the other, so a joined
 * n-gram is a string in one piece, hashed as it is (XXH3) and compared
 * with memcmp; and each word gets a number, the same for the same bytes
 * (a table of the distinct words), so a spaced n-gram is a sequence of
 * numbers.  Every hash only finds candidates and every match is
 * confirmed, byte for byte or number for number, so no collision, natural
 * or crafted, changes a count; and since no n-gram's hash is made from
 * its words' hashes, no algebraic family of strings collides by
 * construction (as the Thue-Morse strings do under a polynomial hash
 * modulo 2^64, for every base).
 *
 * Most n-grams are seen once, and a pass need not look them up: it looks
 * up only its candidates, the n-grams that a cheap exact test does not
 * show to be seen once (see q_top_ngram and q_dup_ngrams).  A pass is one
 * scan of its candidates against an open-addressing table, reused by
 * every pass and every document and emptied by a new epoch rather than
 * cleared.
 */
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "quality/quality.h"

/*
 * A slot: a key, and an epoch (8 bits; another is empty), a tag (24 bits)
 * and a value (32 bits: a position or a number).
 */
struct slot {
	uint64_t	 key;
	uint64_t	 meta;
};

#define EPOCH(m)	((unsigned)((m) >> 56))
#define TAG(h)		((uint64_t)((h) & 0xffffff) << 32)
#define TAGOF(m)	((m) & ((uint64_t)0xffffff << 32))
#define VALUE(m)	((size_t)(uint32_t)(m))

struct q_ngram_tab {
	unsigned	 base, exact;	/* the arrays are of words t->gen */
	size_t		 cap;		/* of the arrays by word */
	/*
	 * By word i: a hash of it (hw), its number (id), what repeats at it
	 * (flags), the sketch's count of the bigram there (c2); of words
	 * 0..i-1: their bytes (catl) and code points (cpsum).
	 */
	uint64_t	*hw;
	uint32_t	*id, *c2, *wmin;
	size_t		 wminn;		/* wmin: c2's least in each n-gram of n */
	uint64_t	 top234[3], most234[3];	/* see bounds234 */
	int		 have_b234;
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
	/* sketches: counts of bigrams by bucket; seen marks of keys */
	uint32_t	*sk2;
	unsigned char	*sk;
	size_t		 sk2cap, skcap;
	int		 have_sk2;
	struct slot	*slots;
	size_t		 slotcap, mask;
	unsigned	 shift, epoch;
};

/*
 * flags: the 8 (16) bytes from a word on, the words joined, may be at a
 * word's start before it (F_..._BEFORE) or after it too (a sketch: so
 * they are not when the flag is clear); the bigram there is seen
 * elsewhere too (exact).
 */
#define F_KEY8		1
#define F_KEY8_BEFORE	2
#define F_KEY16		4
#define F_KEY16_BEFORE	8
#define F_BIGRAM	16

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

static inline void
slot_set(const struct q_ngram_tab *g, size_t k, uint64_t key, uint64_t h,
    size_t value)
{
	g->slots[k].key = key;
	g->slots[k].meta = (uint64_t)g->epoch << 56 | TAG(h) | (uint64_t)value;
}

/*
 * Fetch the slot of the hash d places ahead, so the table's misses
 * overlap (a document's table may be past the first caches).
 */
#define AHEAD	8

static inline void
ahead(const struct q_ngram_tab *g, const uint64_t *h, size_t i, size_t n)
{
	if (i + AHEAD < n)
		__builtin_prefetch(&g->slots[slot_of(g, h[i + AHEAD])]);
}

/* Odd constants of multiplicative hashes (2^64 over the golden ratio...) */
#define K1	0x9e3779b97f4a7c15ull
#define K2	0xd6e8feb86659fd93ull

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

/* 0xff k times, then 0 (k <= 8), as a number loaded from memory. */
static inline uint64_t
ones(size_t k)
{
	static const unsigned char b[24] = { 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	return load64(b + 16 - k);
}

/*
 * The n bytes at p (16 readable) as two numbers, the bytes past n zero;
 * for n up to 16, two such words are equal when their numbers and
 * lengths are.
 */
static inline uint64_t
key2(const unsigned char *p, size_t n, uint64_t *b)
{
	size_t lo = n < 8 ? n : 8, hi = n > 16 ? 8 : n > 8 ? n - 8 : 0;

	*b = load64(p + 8) & ones(hi);
	return load64(p) & ones(lo);
}

static void *
grow(void *p, size_t n, size_t size)
{
	return pskd_xreallocarray(p, n, size);
}

/* A power of 2, 64 or more, at least k times n (or 2^31); its bits. */
static size_t
pow2(size_t n, size_t k, unsigned *bits)
{
	size_t cap = 64;

	for (*bits = 6; cap / k < n && *bits < 31; (*bits)++)
		cap *= 2;
	return cap;
}

/*
 * The arrays of every pass, once a word list: the words joined in g->s,
 * their bytes and code points before each, a hash of each word.
 */
static struct q_ngram_tab *
base(struct q_text *t)
{
	struct q_ngram_tab *g = t->tab;
	const struct q_span *w = t->words.v;
	size_t i, n = t->words.n, len;
	uint64_t a, b, *catl, *cpsum, *hw;
	unsigned char *sp, *q;

	if (g == NULL)
		g = t->tab = pskd_xcalloc(1, sizeof(*g));
	if (g->base == t->gen)
		return g;
	if (g->cap < n + 1) {
		g->cap = n + 1;
		g->hw = grow(g->hw, g->cap, sizeof(*g->hw));
		g->id = grow(g->id, g->cap, sizeof(*g->id));
		g->c2 = grow(g->c2, g->cap, sizeof(*g->c2));
		g->wmin = grow(g->wmin, g->cap, sizeof(*g->wmin));
		g->flags = grow(g->flags, g->cap, sizeof(*g->flags));
		g->first = grow(g->first, g->cap, sizeof(*g->first));
		g->wc = grow(g->wc, g->cap, sizeof(*g->wc));
		g->cand = grow(g->cand, g->cap, sizeof(*g->cand));
		g->count = grow(g->count, g->cap, sizeof(*g->count));
		g->catl = grow(g->catl, g->cap, sizeof(*g->catl));
		g->cpsum = grow(g->cpsum, g->cap, sizeof(*g->cpsum));
	}
	len = t->n;		/* the words are pieces of the text */
	if (g->scap < len + 16) {
		g->scap = len + 16;
		free(g->s);
		g->s = pskd_xmalloc(g->scap);
	}
	catl = g->catl;
	cpsum = g->cpsum;
	hw = g->hw;
	sp = g->s;
	catl[0] = cpsum[0] = 0;
	for (i = 0; i < n; i++) {
		len = w[i].len;
		q = sp + catl[i];
		/* 16 bytes at a time: the next word's copy writes over the rest */
		if (len <= 16 && w[i].off + 16 <= t->n)
			memcpy(q, t->p + w[i].off, 16);
		else
			memcpy(q, t->p + w[i].off, len);
		a = key2(q, len, &b);
		hw[i] = len <= 16 ? (a ^ len) * K1 ^ b * K2 :
		    XXH3_64bits(q, len);
		catl[i + 1] = catl[i] + len;
		cpsum[i + 1] = cpsum[i] + w[i].cps;
	}
	memset(sp + catl[n], 0, 16);
	memset(g->flags, 0, n);
	g->bigrams = g->have_sk2 = g->have_b234 = 0;
	g->wminn = 0;
	g->candw = g->keysw = 0;
	g->base = t->gen;
	return g;
}

/*
 * Each word's number (g->id), the first position and count of each
 * number: a table of the distinct words, the first 8 bytes and the length
 * in each slot, the rest confirmed from the word's first place.
 */
static struct q_ngram_tab *
tab(struct q_text *t)
{
	struct q_ngram_tab *g = base(t);
	const struct q_span *w = t->words.v;
	size_t i, k, f, n = t->words.n, nw = 0, len;
	uint64_t a, b, h, tag, m, fb;
	const unsigned char *p;

	if (g->exact == t->gen)
		return g;
	table(g, n);
	for (i = 0; i < n; i++) {
		ahead(g, g->hw, i, n);
		p = g->s + g->catl[i];
		len = w[i].len;
		a = key2(p, len, &b);
		h = g->hw[i];
		tag = TAG(h);
		for (k = slot_of(g, h);; k = (k + 1) & g->mask) {
			m = g->slots[k].meta;
			if (EPOCH(m) != g->epoch) {
				slot_set(g, k, a, h, nw);
				g->first[nw] = (uint32_t)i;
				g->wc[nw] = 1;
				g->id[i] = (uint32_t)nw++;
				break;
			}
			if (g->slots[k].key != a || TAGOF(m) != tag)
				continue;
			f = g->first[VALUE(m)];
			if (w[f].len != len)
				continue;
			if (len > 8) {
				key2(g->s + g->catl[f], len, &fb);
				if (fb != b || (len > 16 && memcmp(g->s +
				    g->catl[f], p, len) != 0))
					continue;
			}
			g->id[i] = (uint32_t)VALUE(m);
			g->wc[VALUE(m)]++;
			break;
		}
	}
	g->exact = t->gen;
	return g;
}

/*
 * The flags F_KEY8 and F_KEY16 (and their _BEFORE) for the n-grams of n
 * words and more: the first 8 (16) bytes from each word on, marked in a
 * sketch (16 buckets a word, 2 bits a bucket: seen once, twice) by a hash
 * of them, so that keys that differ may share a bucket, never equal ones.
 * Only an n-gram of fewer than 16 bytes looks at F_KEY8, and one of more
 * words has more bytes: so only the words where the n-gram has fewer are
 * marked for it.
 */
static void
keys(struct q_ngram_tab *g, size_t words, size_t n)
{
	const uint64_t *catl = g->catl;
	const unsigned char *s = g->s, *p;
	unsigned char *flags = g->flags, *sk8, *sk16;
	uint32_t *at = g->count, *bucket = g->cand;
	size_t i, x, k, y, z, end = catl[words], m = words - n + 1, len;
	unsigned bits, old, sh;
	uint64_t a;

	if (g->bigrams)
		for (i = 0; i < words; i++)
			flags[i] &= F_BIGRAM;
	else
		memset(flags, 0, words);
	len = pow2(words, 16, &bits) / 4;
	if (g->skcap < 2 * len) {
		free(g->sk);
		g->sk = pskd_xmalloc(2 * len);
		g->skcap = 2 * len;
	}
	sk8 = g->sk;
	sk16 = g->sk + len;
	memset(g->sk, 0, 2 * len);
	/* a bucket's 2 bits: seen once, seen twice */
	for (x = 0, i = 0; i < words && catl[i] + 8 <= end; i++) {
		p = s + catl[i];
		a = load64(p);
		if (catl[i] + 16 <= end) {
			y = (size_t)(((a ^ load64(p + 8) * K2) * K1) >>
			    (64 - bits));
			sh = (unsigned)(y & 3) * 2;
			old = sk16[y / 4] >> sh & 3;
			flags[i] |= (unsigned char)(old != 0 ? F_KEY16_BEFORE : 0);
			sk16[y / 4] |= (unsigned char)((old << 1 | 1) << sh);
		} else
			y = SIZE_MAX;
		z = SIZE_MAX;
		if (i < m && catl[i + n] - catl[i] < 16) {
			z = (size_t)((a * K1) >> (64 - bits));
			sh = (unsigned)(z & 3) * 2;
			old = sk8[z / 4] >> sh & 3;
			flags[i] |= (unsigned char)(old != 0 ? F_KEY8_BEFORE : 0);
			sk8[z / 4] |= (unsigned char)((old << 1 | 1) << sh);
		}
		at[x] = (uint32_t)y;
		bucket[x++] = (uint32_t)z;
	}
	for (k = 0; k < x; k++) {
		if ((y = at[k]) != (uint32_t)SIZE_MAX &&
		    sk16[y / 4] >> (y & 3) * 2 & 2)
			flags[k] |= F_KEY16;
		if ((z = bucket[k]) != (uint32_t)SIZE_MAX &&
		    sk8[z / 4] >> (z & 3) * 2 & 2)
			flags[k] |= F_KEY8;
	}
	g->keysw = n;
	g->candw = 0;
}

/*
 * The bigrams' sketch: their counts by bucket of a hash of their words'
 * hashes (4 buckets a word), so that no bucket counts fewer than a bigram
 * in it; the count of each bigram's bucket in g->c2.
 */
static void
sketch2(struct q_ngram_tab *g, size_t words)
{
	const uint64_t *hw = g->hw;
	uint32_t *c2 = g->c2, *sk2;
	size_t i, cap;
	unsigned bits;

	cap = pow2(words, 4, &bits);
	if (g->sk2cap < cap) {
		free(g->sk2);
		g->sk2 = pskd_xmalloc(cap * sizeof(*g->sk2));
		g->sk2cap = cap;
	}
	sk2 = g->sk2;
	memset(sk2, 0, cap * sizeof(*sk2));
	for (i = 0; i + 1 < words; i++) {
		c2[i] = (uint32_t)(((hw[i] * K2 ^ hw[i + 1]) * K1) >>
		    (64 - bits));
		sk2[c2[i]]++;
	}
	for (i = 0; i + 1 < words; i++)
		c2[i] = sk2[c2[i]];
	g->have_sk2 = 1;
}

/*
 * The bounds of q_top_ngram for n 2, 3 and 4 in one pass (what the
 * (n-1)-gram's count adds is left out): the most of the least sketch
 * count of an n-gram's bigrams, and that times its code points.
 */
static void
bounds234(struct q_ngram_tab *g, size_t words)
{
	const uint32_t *c2 = g->c2;
	const uint64_t *cps = g->cpsum;
	uint64_t c, v, t2 = 0, t3 = 0, t4 = 0, m2 = 0, m3 = 0, m4 = 0;
	size_t i;

	for (i = 0; i + 2 <= words; i++) {
		c = c2[i];
		v = c * (cps[i + 2] - cps[i] + 1);
		t2 = v > t2 ? v : t2;
		m2 = c > m2 ? c : m2;
		if (i + 3 > words)
			continue;
		c = c2[i + 1] < c ? c2[i + 1] : c;
		v = c * (cps[i + 3] - cps[i] + 2);
		t3 = v > t3 ? v : t3;
		m3 = c > m3 ? c : m3;
		if (i + 4 > words)
			continue;
		c = c2[i + 2] < c ? c2[i + 2] : c;
		v = c * (cps[i + 4] - cps[i] + 3);
		t4 = v > t4 ? v : t4;
		m4 = c > m4 ? c : m4;
	}
	g->top234[0] = t2;
	g->top234[1] = t3;
	g->top234[2] = t4;
	g->most234[0] = m2;
	g->most234[1] = m3;
	g->most234[2] = m4;
	g->have_b234 = 1;
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
 * by their words' numbers: the most frequent, with F_BIGRAM set at every
 * n-gram seen twice (n 2).  *first is the first position of the top one
 * (ties: the first to appear); the count is returned, 1 when nothing
 * repeats.
 */
static uint64_t
counts(struct q_ngram_tab *g, size_t n, size_t *first)
{
	size_t x, i, j, k, f, bestfirst = 0;
	uint64_t h, key, tag, meta, bestcount = 0;

	table(g, g->ncand);
	for (x = 0; x < g->ncand; x++) {
		i = g->cand[x];
		if (n == 2)	/* the two numbers are the key */
			key = (uint64_t)g->id[i] << 32 | g->id[i + 1];
		else
			for (key = n, k = 0; k < n; k++)
				key = (key ^ g->id[i + k]) *
				    0x9e3779b97f4a7c15ull;
		h = mix(key);
		tag = TAG(h);
		for (k = slot_of(g, h);; k = (k + 1) & g->mask) {
			meta = g->slots[k].meta;
			if (EPOCH(meta) != g->epoch) {
				slot_set(g, k, key, h, i);
				g->count[i] = 0;
				f = i;
				break;
			}
			j = VALUE(meta);
			if (g->slots[k].key == key && TAGOF(meta) == tag &&
			    (n == 2 || ids_eq(g, j, i, n))) {
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

/*
 * First a bound: an n-gram is seen at most as often as each of its
 * bigrams, each at most the count of the bigrams' sketch in its bucket
 * and at most as often as the (n-1)-gram it starts with; when that,
 * times the n-gram's code points, cannot pass frac anywhere, the rule
 * cannot fail; when it is 1 everywhere, the first n-gram is the top one.
 * Else the counts: only an n-gram seen twice can be the top one when one
 * is, one whose words are each seen twice (n 1), whose first and last
 * bigrams are.
 */
uint64_t
q_top_ngram(struct q_text *t, size_t n, double frac, uint64_t *topcount)
{
	struct q_ngram_tab *g;
	size_t i, k, m, first;
	uint64_t count, c, v, top = 0, most = 0, prev = *topcount;
	const uint64_t *cps;
	const uint32_t *c2;
	uint32_t *wmin;

	*topcount = 0;
	if (t->words.n < n || too_many(t))
		return 0;
	g = base(t);
	m = i = t->words.n - n + 1;
	if (n >= 2 && !g->have_sk2)
		sketch2(g, t->words.n);
	if (n >= 2 && n <= 4) {		/* 2, 3 and 4 at once */
		if (!g->have_b234)
			bounds234(g, t->words.n);
		if (prev >= g->most234[n - 2]) {
			most = g->most234[n - 2];
			top = g->top234[n - 2];
			goto bounded;
		}
	}
	/* the least count of the bigrams in each n-gram, from n - 1's */
	c2 = g->c2;
	wmin = g->wmin;
	cps = g->cpsum;
	if (n >= 2 && g->wminn + 1 != n) {
		for (i = 0; i < m; i++)
			for (wmin[i] = c2[i], k = 1; k + 1 < n; k++)
				wmin[i] = c2[i + k] < wmin[i] ? c2[i + k] :
				    wmin[i];
		g->wminn = n;
	}
	for (i = 0; i < m; i++) {
		/* no more than each of its bigrams, nor its (n-1)-gram */
		if (n >= 2) {
			if (g->wminn != n)
				wmin[i] = c2[i + n - 2] < wmin[i] ?
				    c2[i + n - 2] : wmin[i];
			c = wmin[i] < prev ? wmin[i] : prev;
		} else if ((c = prev) == UINT64_MAX)
			break;
		most = c > most ? c : most;
		v = c * (cps[i + n] - cps[i] + n - 1);
		top = v > top ? v : top;
	}
	g->wminn = n >= 2 ? n : g->wminn;
bounded:
	if (i == m && (most <= 1 || q_ratio((double)top, (double)t->cps) <=
	    frac)) {
		/* every n-gram once: the first is the top one */
		*topcount = most;
		return most <= 1 ? g->cpsum[n] + n - 1 : top;
	}
	g = tab(t);
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
 * What the flags say of the n-gram at i: 0 seen nowhere else, 1 seen
 * only after it, 3 seen before it (or not known): whether its first 8
 * (16) bytes, all in it, are at other words' starts.
 */
static inline unsigned
dup_candidate(const struct q_ngram_tab *g, size_t i, size_t n)
{
	uint64_t len = g->catl[i + n] - g->catl[i];

	if (len >= 16)
		return (unsigned)(g->flags[i] / F_KEY16) & 3;
	if (len >= 8)
		return (unsigned)(g->flags[i] / F_KEY8) & 3;
	return 3;
}

/*
 * The candidates are the n-grams that may be seen twice: an n-gram seen
 * once, at a position the scan reaches, is one it adds and never finds
 * again, so the scan goes past it as if it had.  A candidate of n+1 words
 * is one of n: the list of a shorter n-gram is cut down.  Only a
 * candidate seen before can be a duplicate: when the code points of those
 * and their n-grams cannot pass frac, the rule cannot fail.
 */
uint64_t
q_dup_ngrams(struct q_text *t, size_t n, double frac)
{
	struct q_ngram_tab *g;
	uint64_t dup = 0, h, meta, len, bound = 0, reach = 0;
	size_t i, j, k, m, x, y, check;
	unsigned c;

	if (t->words.n < n || too_many(t))
		return 0;
	g = base(t);
	if (g->keysw == 0 || g->keysw > n)
		keys(g, t->words.n, n);
	m = t->words.n - n + 1;
	for (x = y = 0;; x++) {
		if (g->candw == 0 || g->candw > n) {
			if (x == m)
				break;
			i = x;
		} else if (x == g->ncand || (i = g->cand[x]) >= m)
			break;
		if ((c = dup_candidate(g, i, n)) == 0)
			continue;
		g->cand[y++] = (uint32_t)i;
		if (c == 3) {	/* the code points it may add */
			bound += g->cpsum[i + n] - g->cpsum[i > reach ? i :
			    reach];
			reach = i + n;
		}
	}
	g->ncand = y;
	g->candw = n;
	if (q_ratio((double)bound, (double)t->cps) <= frac)
		return 0;
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
		for (k = slot_of(g, h);; k = (k + 1) & g->mask) {
			meta = g->slots[k].meta;
			if (EPOCH(meta) != g->epoch) {
				slot_set(g, k, h, h, i);
				x++;
				break;
			}
			j = VALUE(meta);
			if (g->slots[k].key == h && g->catl[j + n] -
			    g->catl[j] == len && memcmp(g->s + g->catl[j],
			    g->s + g->catl[i], len) == 0) {
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
	free(g->hw);
	free(g->id);
	free(g->c2);
	free(g->wmin);
	free(g->sk2);
	free(g->sk);
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
