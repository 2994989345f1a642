/*
 * seg.c - words and sentences: ICU's break iterators (UAX #29 word and
 * sentence boundaries, the root locale's rules, with ICU's dictionaries
 * for the scripts written without spaces) over the UTF-8 text itself.
 * The segments between two word boundaries, each stripped of white space
 * as Python's str.strip() strips it, are the words; the sentences are cut
 * at the sentence boundaries.
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <immintrin.h>
#endif

#include <unicode/ubrk.h>
#include <unicode/uclean.h>
#include <unicode/utext.h>
#include <unicode/uversion.h>

#include "quality/quality.h"

struct q_seg {
	UBreakIterator	*word, *sent;
	UText		*ut;
	int		 icu_only;	/* no ASCII path (tests) */
};

struct q_seg *
q_seg_open(struct pskd_error *e)
{
	struct q_seg *s = pskd_xcalloc(1, sizeof(*s));
	UErrorCode u = U_ZERO_ERROR;

	s->word = ubrk_open(UBRK_WORD, "", NULL, 0, &u);
	if (U_SUCCESS(u))
		s->sent = ubrk_open(UBRK_SENTENCE, "", NULL, 0, &u);
	if (U_FAILURE(u)) {
		pskd_error_set(e, 0, "ICU break iterators: %s", u_errorName(u));
		q_seg_close(s);
		return NULL;
	}
	return s;
}

void
q_seg_close(struct q_seg *s)
{
	if (s == NULL)
		return;
	if (s->word)
		ubrk_close(s->word);
	if (s->sent)
		ubrk_close(s->sent);
	if (s->ut)
		utext_close(s->ut);
	free(s);
}

const char *
q_icu_version(void)
{
	return U_ICU_VERSION;
}

/* The iterator bi set on t[0..n); -1 with e set. */
static int
set_text(struct q_seg *s, UBreakIterator *bi, const unsigned char *t,
    size_t n, struct pskd_error *e)
{
	UErrorCode u = U_ZERO_ERROR;

	if (n > INT32_MAX) {
		pskd_error_set(e, 0, "a text of %zu bytes: ICU's break "
		    "iterators take at most 2 GiB", n);
		return -1;
	}
	s->ut = utext_openUTF8(s->ut, (const char *)t, (int64_t)n, &u);
	if (U_SUCCESS(u))
		ubrk_setUText(bi, s->ut, &u);
	if (U_FAILURE(u)) {
		pskd_error_set(e, 0, "ICU: %s", u_errorName(u));
		return -1;
	}
	return 0;
}

/* The words of t[a..b) by ICU, their offsets from t. */
static int
icu_words(struct q_seg *s, const unsigned char *t, size_t a, size_t b,
    struct q_spans *out, struct pskd_error *e)
{
	int32_t prev = 0, cur;
	const unsigned char *p = t + a;
	size_t x, y;

	if (set_text(s, s->word, p, b - a, e) == -1)
		return -1;
	while ((cur = ubrk_next(s->word)) != UBRK_DONE) {
		/* A segment of one ASCII byte: a word unless white space. */
		if (cur == prev + 1 && p[prev] < 0x80) {
			if (!q_isspace(p[prev]))
				q_spans_add(out, a + (size_t)prev, 1, 1);
			prev = cur;
			continue;
		}
		q_strip(p + prev, (size_t)(cur - prev), &x, &y);
		if (y > x)
			q_spans_add(out, a + (size_t)prev + x, y - x,
			    q_cplen(p + prev + x, y - x));
		prev = cur;
	}
	return 0;
}

/*
 * The word classes of ASCII in ICU 72's root rules (UAX #29 with CLDR's
 * changes): letters and '@' (an ALetter in CLDR's rules), digits,
 * ExtendNumLet '_', MidNumLet '.', MidNum ',' ';', Single_Quote '\''; ':'
 * is no MidLetter there (CLDR took it out); Python's white space among the
 * others; the rest.
 */
enum { C_O, C_L, C_N, C_E, C_MNL, C_MN, C_SQ, C_SP, C_SPLIT, C_HIGH };

/* By byte: C_SPLIT for the white space that splits chunks, C_HIGH >= 0x80. */
static unsigned char wclass[256];

static void
wclass_init(void)
{
	int c;

	for (c = 0; c < 256; c++) {
		if (c >= 0x80)
			wclass[c] = C_HIGH;
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
			wclass[c] = C_L;
		else if (c >= '0' && c <= '9')
			wclass[c] = C_N;
		else if (c == ' ' || (c >= '\t' && c <= '\r'))
			wclass[c] = C_SPLIT;
		else if (q_isspace((uint32_t)c))
			wclass[c] = C_SP;
		else
			wclass[c] = C_O;
	}
	wclass['_'] = C_E;
	wclass['@'] = C_L;
	wclass['.'] = C_MNL;
	wclass[','] = wclass[';'] = C_MN;
	wclass['\''] = C_SQ;
}

static int
wordish(unsigned c)
{
	return c == C_L || c == C_N || c == C_E;
}

/*
 * The words of the chunk from t[k], as ICU's rules cut ASCII: letters
 * (and '@'), digits and '_' hold together (WB5, WB8-10, WB13a-b), as do a
 * letter, '.' or '\'' and a letter (WB6-7) and a digit, ',' ';' '.' or
 * '\'' and a digit (WB11-12); every other character is a segment of its
 * own (WB999).  Returns where the chunk ends (at white space that splits
 * chunks, or n), or, at a byte of another character, (size_t)-1 - that
 * byte's offset, with the chunk's words not all added.
 */
static size_t
ascii_chunk(const unsigned char *t, size_t k, size_t n, struct q_spans *out)
{
	size_t j;
	unsigned c, m, prev, next;

	while (k < n) {
		c = wclass[t[k]];
		if (c == C_SPLIT)
			return k;
		if (c == C_HIGH)
			return (size_t)-1 - k;
		if (c == C_SP) {
			k++;
			continue;
		}
		if (!wordish(c)) {
			q_spans_add(out, k, 1, 1);
			k++;
			continue;
		}
		for (j = k + 1;;) {
			while (j < n && wordish(wclass[t[j]]))
				j++;
			if (j + 1 >= n)
				break;
			m = wclass[t[j]];
			prev = wclass[t[j - 1]];
			next = wclass[t[j + 1]];
			if ((prev == C_L && next == C_L && (m == C_MNL ||
			    m == C_SQ)) || (prev == C_N && next == C_N &&
			    (m == C_MN || m == C_MNL || m == C_SQ))) {
				j += 2;
				continue;
			}
			break;
		}
		q_spans_add(out, k, j - k, j - k);
		k = j;
	}
	return n;
}

#ifdef __SSE2__
/* Bytes in lo..lo+k-1 (a mask of the 16 of v). */
static inline unsigned
in_range(__m128i v, int lo, int k)
{
	__m128i x = _mm_sub_epi8(v, _mm_set1_epi8((char)lo));

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(x,
	    _mm_set1_epi8((char)(k - 1))), x));
}

static inline unsigned
is(__m128i v, int c)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
	    _mm_set1_epi8((char)c)));
}

/* Letters and '@', digits, of 16 bytes. */
static inline void
letters(__m128i v, unsigned *l, unsigned *d)
{
	*l = in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 26) |
	    is(v, '@');
	*d = in_range(v, '0', 10);
}

/* The segment left open by the blocks so far (see vector_words). */
struct segs {
	size_t		 start;
	int		 open;
};

/*
 * A block's segments from i: they start at the bits of st and end at
 * those of en; the k-th end closes the k-th start, the one still open
 * first.
 */
static inline void
segments(struct q_spans *out, struct segs *sg, size_t i, uint64_t st,
    uint64_t en)
{
	size_t a, b;

	if (sg->open && en != 0) {
		b = i + (size_t)__builtin_ctzll(en);
		q_spans_add(out, sg->start, b - sg->start, b - sg->start);
		en &= en - 1;
		sg->open = 0;
	}
	for (; en != 0; en &= en - 1, st &= st - 1) {
		a = i + (size_t)__builtin_ctzll(st);
		b = i + (size_t)__builtin_ctzll(en);
		q_spans_add(out, a, b - a, b - a);
	}
	if (st != 0) {		/* one, still open */
		sg->start = i + (size_t)__builtin_ctzll(st);
		sg->open = 1;
	}
}

/* The words from cs on taken back: where the caller goes on from. */
static inline size_t
take_back(struct q_spans *out, size_t cs)
{
	while (out->n > 0 && out->v[out->n - 1].off >= cs)
		out->n--;
	return cs;
}

/*
 * ascii_chunk's cuts, 16 bytes at a time, from the start of a chunk at i
 * for as long as the bytes are ASCII and 17 are left: a bit a byte for
 * each class, a mid character joined where the bytes on both sides allow
 * it, and the segments where the bits change.  A segment (a word, or a
 * character alone) starts at a bit of st and ends at a bit of en; they do
 * not overlap, so the k-th end closes the k-th start, the one left open
 * from the block before first.  Returns the start of the chunk it stopped
 * in, the words from there on taken back.
 */
static size_t
vector_words(const unsigned char *t, size_t i, size_t n, struct q_spans *out)
{
	struct segs sg = { 0, 0 };
	size_t cs = i;
	unsigned l0, d0, l1, d1, lp, dp, w, ml, mn, sp, ws, wc, wcp, o, st, en;
	unsigned cl = 0, cd = 0, cw = 0, co = 0;
	__m128i v0, v1;

	for (; i + 17 <= n; i += 16) {
		v0 = _mm_loadu_si128((const __m128i *)(t + i));
		if (_mm_movemask_epi8(v0) != 0)
			break;
		v1 = _mm_loadu_si128((const __m128i *)(t + i + 1));
		letters(v0, &l0, &d0);
		letters(v1, &l1, &d1);		/* of the byte after each */
		lp = (l0 << 1 | cl) & 0xffff;	/* of the byte before */
		dp = (d0 << 1 | cd) & 0xffff;
		w = l0 | d0 | is(v0, '_');
		ml = is(v0, '.') | is(v0, '\'');
		mn = ml | is(v0, ',') | is(v0, ';');
		sp = is(v0, ' ') | in_range(v0, '\t', 5);
		ws = in_range(v0, 0x1c, 4);
		wc = w | (ml & lp & l1) | (mn & dp & d1);
		wcp = (wc << 1 | cw) & 0xffff;
		o = ~(wc | sp | ws) & 0xffff;	/* a character alone */
		st = (wc & ~wcp) | o;
		en = ((~wc & wcp) | o << 1 | co) & 0xffff;
		segments(out, &sg, i, st, en);
		if (sp != 0)
			cs = i + 32 - (size_t)__builtin_clz(sp);
		cl = l0 >> 15;
		cd = d0 >> 15;
		cw = wc >> 15;
		co = o >> 15;
	}
	return take_back(out, cs);
}

#define AVX512	__attribute__((target("avx512f,avx512bw")))

/* Bytes in lo..lo+k-1 (a mask of the 64 of v). */
AVX512 static inline uint64_t
in_range512(__m512i v, int lo, int k)
{
	return _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8(
	    (char)lo)), _mm512_set1_epi8((char)k));
}

AVX512 static inline uint64_t
is512(__m512i v, int c)
{
	return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)c));
}

AVX512 static inline void
letters512(__m512i v, uint64_t *l, uint64_t *d)
{
	*l = in_range512(_mm512_or_si512(v, _mm512_set1_epi8(0x20)), 'a', 26) |
	    is512(v, '@');
	*d = in_range512(v, '0', 10);
}

/* vector_words, 64 bytes at a time (while 65 are left). */
AVX512 static size_t
vector_words512(const unsigned char *t, size_t i, size_t n,
    struct q_spans *out)
{
	struct segs sg = { 0, 0 };
	size_t cs = i;
	uint64_t l0, d0, l1, d1, lp, dp, w, ml, mn, sp, ws, wc, wcp, o, st, en;
	uint64_t cl = 0, cd = 0, cw = 0, co = 0;
	__m512i v0, v1;

	for (; i + 65 <= n; i += 64) {
		v0 = _mm512_loadu_si512(t + i);
		if (_mm512_movepi8_mask(v0) != 0)
			break;
		v1 = _mm512_loadu_si512(t + i + 1);
		letters512(v0, &l0, &d0);
		letters512(v1, &l1, &d1);
		lp = l0 << 1 | cl;
		dp = d0 << 1 | cd;
		w = l0 | d0 | is512(v0, '_');
		ml = is512(v0, '.') | is512(v0, '\'');
		mn = ml | is512(v0, ',') | is512(v0, ';');
		sp = is512(v0, ' ') | in_range512(v0, '\t', 5);
		ws = in_range512(v0, 0x1c, 4);
		wc = w | (ml & lp & l1) | (mn & dp & d1);
		wcp = wc << 1 | cw;
		o = ~(wc | sp | ws);
		st = (wc & ~wcp) | o;
		en = (~wc & wcp) | o << 1 | co;
		segments(out, &sg, i, st, en);
		if (sp != 0)
			cs = i + 64 - (size_t)__builtin_clzll(sp);
		cl = l0 >> 63;
		cd = d0 >> 63;
		cw = wc >> 63;
		co = o >> 63;
	}
	return take_back(out, cs);
}
#endif

/* The end of the chunk from i, and whether it has a byte >= 0x80. */
static size_t
chunk_end(const unsigned char *t, size_t i, size_t n, int *high)
{
	*high = 0;
	for (; i < n && wclass[t[i]] != C_SPLIT; i++)
		*high |= t[i] >= 0x80;
	return i;
}

/*
 * A chunk is a run without white space that splits chunks (space, \t to
 * \r): UAX #29 breaks on both sides of it, no rule joins across it.  An
 * ASCII chunk is cut by ascii_chunk; a run of chunks with other
 * characters (and the white space between them) by ICU.  So the words
 * are those ICU finds in the whole text.
 */
int
q_words(struct q_seg *s, const unsigned char *t, size_t n,
    struct q_spans *out, struct pskd_error *e)
{
	size_t i = 0, cs, ce, j, k, mark;
	int high;

	out->n = 0;
	if (wclass['a'] != C_L)
		wclass_init();
	if (s->icu_only)
		return n == 0 ? 0 : icu_words(s, t, 0, n, out, e);
	while (i < n) {
		while (i < n && wclass[t[i]] == C_SPLIT)
			i++;
		if (i == n)
			break;
#ifdef __SSE2__
		/* where it stops, the chunk is another's or too short */
		if (q_simd() >= Q_AVX512 && i + 65 <= n &&
		    (j = vector_words512(t, i, n, out)) > i) {
			i = j;
			continue;
		}
		if (q_simd() && i + 17 <= n && (j = vector_words(t, i, n,
		    out)) > i) {
			i = j;
			continue;
		}
#endif
		cs = i;
		mark = out->n;
		i = ascii_chunk(t, cs, n, out);
		if (i <= n)
			continue;
		out->n = mark;		/* another character: ICU's */
		ce = chunk_end(t, (size_t)-1 - i, n, &high);
		for (;;) {	/* and the chunks with others after it */
			for (j = ce; j < n && wclass[t[j]] == C_SPLIT; j++)
				;
			k = chunk_end(t, j, n, &high);
			if (!high || k == j)
				break;
			ce = k;
		}
		if (icu_words(s, t, cs, ce, out, e) == -1)
			return -1;
		i = ce;
	}
	return 0;
}

void
q_seg_icu_only(struct q_seg *s, int on)
{
	s->icu_only = on;
}

int
q_sentence_count(struct q_seg *s, const unsigned char *t, size_t n,
    size_t limit, size_t *count, struct pskd_error *e)
{
	*count = 0;
	if (n == 0) {
		*count = 1;
		return 0;
	}
	if (!s->icu_only && q_is_ascii(t, n)) {
		*count = q_ascii_sentences(t, n, limit, NULL);
		return 0;
	}
	if (set_text(s, s->sent, t, n, e) == -1)
		return -1;
	while (*count < limit && ubrk_next(s->sent) != UBRK_DONE)
		(*count)++;
	return 0;
}

int
q_sentences(struct q_seg *s, const unsigned char *t, size_t n,
    struct q_spans *out, struct pskd_error *e)
{
	int32_t prev = 0, cur;

	out->n = 0;
	if (n == 0) {
		q_spans_add(out, 0, 0, 0);
		return 0;
	}
	if (!s->icu_only && q_is_ascii(t, n)) {
		q_ascii_sentences(t, n, SIZE_MAX, out);
		return 0;
	}
	if (set_text(s, s->sent, t, n, e) == -1)
		return -1;
	while ((cur = ubrk_next(s->sent)) != UBRK_DONE) {
		q_spans_add(out, (size_t)prev, (size_t)(cur - prev),
		    q_cplen(t + prev, (size_t)(cur - prev)));
		prev = cur;
	}
	return 0;
}
