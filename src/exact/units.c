/*
 * units.c - the units of a document (pskd-exact(1), UNITS): its whole
 * text, its paragraphs, its lines or its spans of sentences, each with
 * the bytes removing it takes and the XXH3-64 hash of its content after
 * normalisation (normalize.c, pskd-shingle's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "dedup/frame.h"
#include "exact/exact.h"

/* ASCII white space: the bytes that separate, end and blank. */
static inline int
isw(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	    c == '\r';
}

static int
blank(const unsigned char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isw(s[i]))
			return 0;
	return 1;
}

void
x_units_init(struct x_units *u, const struct x_params *p)
{
	memset(u, 0, sizeof(*u));
	u->p = *p;
	pskd_norm_init(&u->nm, p->raw ? 0 : p->norm);
	u->whole = !p->raw && p->grain == X_LINE && (p->norm & PSKD_NORM_SPACE);
	if (u->whole)
		pskd_norm_init(&u->nml, p->norm | PSKD_NORM_LINES);
}

void
x_units_free(struct x_units *u)
{
	free(u->nm.memo);
	free(u->nml.memo);
	free(u->nl);
	pskd_buf_free(&u->ntext);
	free(u->v);
	free(u->sent);
	free(u->soff);
	memset(u, 0, sizeof(*u));
}

/*
 * The content s[0..n) normalised, appended to u->ntext (raw: as it is);
 * 0 when that is nothing, or when the content is only white space.  The
 * member goes on for slack bytes after it.
 */
static int
content(struct x_units *u, const unsigned char *s, size_t n, size_t slack)
{
	size_t start = u->ntext.len;

	if (blank(s, n))
		return 0;
	if (u->p.raw)
		pskd_buf_add(&u->ntext, s, n);
	else
		(void)pskd_norm_text_in(&u->nm, &u->ntext, s, n, slack, 0,
		    NULL);
	return u->ntext.len > start;
}

static uint64_t
hash(const unsigned char *p, size_t n)
{
	uint64_t h = XXH3_64bits_withSeed(p, n, 0);

	return h != 0 ? h : 1;
}

/*
 * A new unit whose normalised content is p[0..n): its hash, told to
 * u->hashed at once (the caller fills in where it lies).
 */
static struct x_unit *
unit_add(struct x_units *u, const unsigned char *p, size_t n)
{
	struct x_unit *x;

	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 64;
		u->v = pskd_xreallocarray(u->v, u->cap, sizeof(*u->v));
	}
	x = &u->v[u->n++];
	memset(x, 0, sizeof(*x));
	x->hash = hash(p, n);
	if (u->hashed != NULL)
		u->hashed(u->harg, x->hash);
	return x;
}

/*
 * A line, paragraph or the text of the member s[0..n): a unit when its
 * content is one.
 */
static void
piece(struct x_units *u, uint32_t k, const unsigned char *s, size_t n,
    size_t off, size_t cend, size_t end)
{
	struct x_unit *x;

	u->ntext.len = 0;
	if (!content(u, s + off, cend - off, n - cend))
		return;
	x = unit_add(u, u->ntext.p, u->ntext.len);
	x->member = k;
	x->off = off;
	x->end = end;
}

/* Lines: cut after each newline; the content is the line without it. */
static void
lines(struct x_units *u, uint32_t k, const unsigned char *s, size_t n)
{
	const unsigned char *nl;
	size_t i = 0, e, c;

	while (i < n) {
		nl = memchr(s + i, '\n', n - i);
		c = nl ? (size_t)(nl - s) : n;
		e = nl ? c + 1 : n;
		piece(u, k, s, n, i, c, e);
		i = e;
	}
}

/*
 * The bits of a 64-bit mask (base + each's offset) to v: four at a time
 * without a branch (a 64-byte block of text holds one or two line breaks,
 * a count a branch would guess wrong), the rest in a loop.  v has room for
 * 64.  Returns how many.
 */
static inline size_t
flatten(size_t *v, size_t base, uint64_t m)
{
	size_t c = (size_t)__builtin_popcountll(m), j;

#define ONE(j) \
	v[j] = base + (m != 0 ? (size_t)__builtin_ctzll(m) : 0); m &= m - 1;
	ONE(0) ONE(1) ONE(2) ONE(3)
#undef ONE
	for (j = 4; m != 0; j++, m &= m - 1)
		v[j] = base + (size_t)__builtin_ctzll(m);
	return c;
}

/* Room in u->nl for 64 offsets from u->nl[k]. */
static inline void
nl_room(struct x_units *u, size_t k)
{
	if (u->nlcap < k + 64) {
		u->nlcap = 2 * (k + 64);
		u->nl = pskd_xreallocarray(u->nl, u->nlcap, sizeof(*u->nl));
	}
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2	1

/* The line breaks of s[i..n), 64 bytes at a time, as breaks(). */
__attribute__((target("avx2,popcnt,bmi"))) static size_t
breaks64_avx2(struct x_units *u, size_t k, const unsigned char *s,
    size_t *pi, size_t n)
{
	const __m256i lf = _mm256_set1_epi8('\n');
	size_t i = *pi;
	uint64_t m;

	for (; i + 64 <= n; i += 64) {
		nl_room(u, k);
		m = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(lf,
		    _mm256_loadu_si256((const __m256i *)(const void *)
		    (s + i)))) | (uint64_t)(uint32_t)_mm256_movemask_epi8(
		    _mm256_cmpeq_epi8(lf, _mm256_loadu_si256((const __m256i *)
		    (const void *)(s + i + 32)))) << 32;
		k += flatten(u->nl + k, i, m);
	}
	*pi = i;
	return k;
}
#endif

/*
 * The offsets of the line breaks of s[0..n), appended to u->nl from
 * u->nl[at]; returns how many.  64 bytes a step, compared 32 at a time
 * with AVX2 or 16 with SSE2, as pskd_simd() allows.
 */
static size_t
breaks(struct x_units *u, size_t at, const unsigned char *s, size_t n)
{
	const unsigned char *nl;
	size_t k = at, i = 0;

#ifdef HAVE_AVX2
	if (u->nm.avx2)
		k = breaks64_avx2(u, k, s, &i, n);
#endif
#ifdef __SSE2__
	if (u->nm.sse2) {
		const __m128i lf = _mm_set1_epi8('\n');
		uint64_t m;
		unsigned j;

		for (; i + 64 <= n; i += 64) {
			nl_room(u, k);
			for (m = 0, j = 0; j < 4; j++)
				m |= (uint64_t)(unsigned)_mm_movemask_epi8(
				    _mm_cmpeq_epi8(lf, _mm_loadu_si128(
				    (const __m128i *)(const void *)(s + i +
				    16 * j)))) << 16 * j;
			k += flatten(u->nl + k, i, m);
		}
	}
#endif
	for (; i < n && (nl = memchr(s + i, '\n', n - i)) != NULL;
	    i = (size_t)(nl - s) + 1) {
		nl_room(u, k);
		u->nl[k++] = (size_t)(nl - s);
	}
	return k - at;
}

/*
 * Lines with spaces collapsed, the member normalised in one call: each
 * line break stays one (PSKD_NORM_LINES), so the text between the i-th
 * and the next is line i's content normalised, but for the one space a
 * run at either end leaves.  The same units as lines(), without a call a
 * line.
 */
static void
lines_whole(struct x_units *u, uint32_t k, const unsigned char *s, size_t n)
{
	const unsigned char *q;
	size_t ni, no, j, a = 0, c, e, oa = 0, oc, len;
	struct x_unit *x;

	if (n == 0)
		return;
	u->ntext.len = 0;
	(void)pskd_norm_text_in(&u->nml, &u->ntext, s, n, 0, 0, NULL);
	ni = breaks(u, 0, s, n);
	no = breaks(u, ni, u->ntext.p, u->ntext.len);
	/* No code point normalises to a line break: none comes or goes. */
	if (no != ni)
		pskd_errx(PSKD_EXIT_DATA, "internal error: %zu line breaks "
		    "normalised to %zu", ni, no);
	for (j = 0; j <= ni; j++) {
		c = j < ni ? u->nl[j] : n;
		e = j < ni ? c + 1 : n;
		oc = j < ni ? u->nl[ni + j] : u->ntext.len;
		q = u->ntext.p + oa;
		len = oc - oa;
		if (len > 0 && q[0] == ' ')
			q++, len--;
		if (len > 0 && q[len - 1] == ' ')
			len--;
		if (len > 0) {
			x = unit_add(u, q, len);
			x->member = k;
			x->off = a;
			x->end = e;
		}
		a = e;
		oa = oc + 1;
	}
}

/*
 * Paragraphs: runs of lines that are not blank, each with the blank lines
 * after it; the content runs from its first line to the end of its last.
 */
static void
paras(struct x_units *u, uint32_t k, const unsigned char *s, size_t n)
{
	const unsigned char *nl;
	size_t i = 0, e, c, start = 0, last = 0;
	int in = 0, gap = 0;

	while (i < n) {
		nl = memchr(s + i, '\n', n - i);
		c = nl ? (size_t)(nl - s) : n;
		e = nl ? c + 1 : n;
		if (blank(s + i, c - i)) {
			gap = in;
		} else {
			if (in && gap)
				piece(u, k, s, n, start, last, i);
			if (!in || gap)
				start = i;
			in = 1;
			gap = 0;
			last = c;
		}
		i = e;
	}
	if (in)
		piece(u, k, s, n, start, last, n);
}

/* The byte after a sentence's end mark at s[j], or 0 if s[j] is none. */
static size_t
end_mark(const unsigned char *s, size_t j, size_t n)
{
	size_t e;

	if (s[j] == '.' || s[j] == '!' || s[j] == '?') {
		for (e = j; e < n && (s[e] == '.' || s[e] == '!' ||
		    s[e] == '?'); e++)
			;
		return e == n || isw(s[e]) ? e : 0;
	}
	/* U+3002, U+FF01 and U+FF1F end one as they stand. */
	if (s[j] == 0xe3 && j + 2 < n && s[j + 1] == 0x80 && s[j + 2] == 0x82)
		return j + 3;
	if (s[j] == 0xef && j + 2 < n && s[j + 1] == 0xbc &&
	    (s[j + 2] == 0x81 || s[j + 2] == 0x9f))
		return j + 3;
	return 0;
}

static void
sentence_add(struct x_units *u, uint32_t k, size_t off, size_t end)
{
	if (u->nsent == u->sentcap) {
		u->sentcap = u->sentcap ? 2 * u->sentcap : 64;
		u->sent = pskd_xreallocarray(u->sent, u->sentcap,
		    sizeof(*u->sent));
	}
	if (u->nsent + 2 > u->soffcap) {
		u->soffcap = 2 * u->sentcap + 2;
		u->soff = pskd_xreallocarray(u->soff, u->soffcap,
		    sizeof(*u->soff));
	}
	u->sent[u->nsent].member = k;
	u->sent[u->nsent].off = off;
	u->sent[u->nsent].end = end;
	u->nsent++;
	pskd_buf_addc(&u->ntext, '\n');
	u->soff[u->nsent] = u->ntext.len;
}

/*
 * Sentences: from a byte that is not white space to an end mark (a run of
 * '.', '!' and '?' before white space or the end; U+3002, U+FF01,
 * U+FF1F), a line break or the end, and the white space after it; the
 * content is the sentence without that white space.
 */
static void
sentences(struct x_units *u, uint32_t k, const unsigned char *s, size_t n)
{
	size_t i = 0, j, cend, ce, e, mark, start;

	while (i < n && isw(s[i]))
		i++;
	while (i < n) {
		start = i;
		cend = n;
		for (j = i; j < n; j++) {
			if (s[j] == '\n') {
				cend = j;
				break;
			}
			if ((mark = end_mark(s, j, n)) != 0) {
				cend = mark;
				break;
			}
		}
		for (ce = cend; ce > start && isw(s[ce - 1]); ce--)
			;
		for (e = cend; e < n && isw(s[e]); e++)
			;
		if (content(u, s + start, ce - start, n - ce))
			sentence_add(u, k, start, e);
		i = e;
	}
}

/*
 * The spans of the sentences of one member, s[a..b): every N in a row, or
 * all of them when there are fewer.
 */
static void
spans(struct x_units *u, size_t a, size_t b)
{
	size_t w = u->p.span, i, last;
	struct x_unit *x;

	if (b == a)
		return;
	if (b - a < w)
		w = b - a;
	for (i = a, last = b - w; i <= last; i++) {
		x = unit_add(u, u->ntext.p + u->soff[i], u->soff[i + w] -
		    u->soff[i] - 1);
		x->first = (uint32_t)i;
		x->count = (uint32_t)w;
		x->member = u->sent[i].member;
	}
}

size_t
x_units_doc(struct x_units *u, const struct pskd_doc *d)
{
	const struct pskd_json_field *f = d->f;
	size_t k, j, a;

	u->n = 0;
	u->nsent = 0;
	u->ntext.len = 0;
	if (u->p.grain == X_DOC) {
		piece(u, 0, d->text, d->textlen, 0, d->textlen, d->textlen);
		return u->n;
	}
	if (u->soffcap < 2) {
		u->soffcap = 130;
		u->soff = pskd_xreallocarray(NULL, u->soffcap, sizeof(*u->soff));
	}
	u->soff[0] = 0;
	for (k = 0; k < d->nf; k++) {
		if (f[k].kind != PSKD_JSON_STRING)
			continue;
		for (j = 0; j < k && f[j].raw != f[k].raw; j++)
			;
		if (j < k)
			continue;	/* the same member named twice */
		switch (u->p.grain) {
		case X_LINE:
			if (u->whole)
				lines_whole(u, (uint32_t)k, f[k].value.p,
				    f[k].value.len);
			else
				lines(u, (uint32_t)k, f[k].value.p,
				    f[k].value.len);
			break;
		case X_PARA:
			paras(u, (uint32_t)k, f[k].value.p, f[k].value.len);
			break;
		default:
			a = u->nsent;
			sentences(u, (uint32_t)k, f[k].value.p,
			    f[k].value.len);
			spans(u, a, u->nsent);
		}
	}
	return u->n;
}

/* The words of s[0..n) normalised (a collapsed run of them). */
static uint64_t
words_norm(struct x_units *u, const unsigned char *s, size_t n)
{
	uint64_t w;
	size_t i;

	u->ntext.len = 0;
	(void)pskd_norm_text(&u->nm, &u->ntext, s, n, 1, NULL);
	if (u->ntext.len == 0)
		return 0;
	for (w = 1, i = 0; i < u->ntext.len; i++)
		w += u->ntext.p[i] == ' ';
	return w;
}

#define WORDS_CHUNK	128	/* bytes; doubled each chunk */

uint64_t
x_words(struct x_units *u, const unsigned char *s, size_t n, uint64_t want)
{
	uint64_t w = 0;
	size_t i, e, c;

	if (u->p.raw) {
		for (i = 0; i < n && w < want; i++)
			w += !isw(s[i]) && (i == 0 || isw(s[i - 1]));
		return w;
	}
	/*
	 * In chunks that end after an ASCII white space byte, which is a
	 * space after normalisation whatever the steps: no word spans two.
	 */
	for (i = 0, c = WORDS_CHUNK; i < n && w < want; i = e, c *= 2) {
		for (e = c < n - i ? i + c : n; e < n && !isw(s[e - 1]); e++)
			;
		w += words_norm(u, s + i, e - i);
	}
	return w;
}

void
x_grain_name(const struct x_params *p, char *out, size_t size)
{
	static const char *const names[] = { "doc", "para", "line" };

	if (p->grain == X_SPAN)
		snprintf(out, size, "span:%u", p->span);
	else
		snprintf(out, size, "%s", names[p->grain]);
}

int
x_grain_parse(const char *s, struct x_params *p)
{
	uint64_t n;

	p->span = X_SPAN_DEFAULT;
	if (strcmp(s, "doc") == 0)
		p->grain = X_DOC;
	else if (strcmp(s, "para") == 0)
		p->grain = X_PARA;
	else if (strcmp(s, "line") == 0)
		p->grain = X_LINE;
	else if (strcmp(s, "span") == 0)
		p->grain = X_SPAN;
	else if (strncmp(s, "span:", 5) == 0 &&
	    pskd_strtonum(s + 5, 1, X_SPAN_MAX, 0, &n) == 0) {
		p->grain = X_SPAN;
		p->span = (uint32_t)n;
	} else
		return -1;
	return 0;
}
