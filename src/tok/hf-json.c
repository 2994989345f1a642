/*
 * hf-json.c - walk a JSON document in place (hf-json.h).  RFC 8259: objects,
 * arrays, strings with every escape, numbers, true, false, null; strings
 * must be UTF-8 and hold no control characters (outside strings JSON is
 * ASCII, which the walk checks).
 *
 * Why a second JSON reader beside lib/json.c: that one validates a JSON
 * Lines line in one pass and hands back the members named by dotted paths
 * (the text, the id), the hot path of every document program; it keeps no
 * place in the text to come back to.  A tokenizer.json is one document of
 * up to tens of megabytes whose reader decides at each value what comes
 * next (a list of normalizers, a vocab of 150,000 members streamed into a
 * table, merges as strings or pairs), skips what it does not need, walks
 * the vocab and merges a second time once the pre-tokenizer is known, and
 * takes strings without a copy where they have no escape: a cursor over
 * the document, which lib/json.c has no use for.  What the two agree on,
 * the grammar of RFC 8259 and the UTF-8 checks (lib's pskd_utf8_*), each
 * follows; neither builds a tree.
 */
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PASS_AVX2	1
#endif

#include "pskd.h"
#include "hf-json.h"

void
pskd_jscan_init(struct pskd_jscan *j, const unsigned char *p, size_t n)
{
	memset(j, 0, sizeof(*j));
	j->start = j->p = p;
	j->end = p + n;
	j->simd = pskd_simd();
}

int
pskd_jscan_fail(struct pskd_jscan *j, const char *why)
{
	if (j->err == NULL) {
		j->err = why;
		j->errat = (size_t)(j->p - j->start);
	}
	j->p = j->end;
	return 0;
}

void
pskd_jscan_where(const struct pskd_jscan *j, uint64_t *line, size_t *col)
{
	const unsigned char *p = j->start, *at = j->start + j->errat, *nl;

	*line = 1;
	while ((nl = memchr(p, '\n', (size_t)(at - p))) != NULL) {
		(*line)++;
		p = nl + 1;
	}
	*col = (size_t)(at - p);
}

static void
space(struct pskd_jscan *j)
{
	j->p = pskd_json_blanks(j->p, j->end);
}

int
pskd_jscan_peek(struct pskd_jscan *j)
{
	if (j->err != NULL)
		return 0;
	space(j);
	if (j->p == j->end)
		return 0;
	switch (*j->p) {
	case '{': case '[': case '"': case 't': case 'f': case 'n':
		return *j->p;
	case '-': case '0': case '1': case '2': case '3': case '4': case '5':
	case '6': case '7': case '8': case '9':
		return PSKD_J_NUMBER;
	default:
		return 0;
	}
}

static int
enter(struct pskd_jscan *j, int c)
{
	if (pskd_jscan_peek(j) != c)
		return j->err ? 0 : pskd_jscan_fail(j, c == '{' ?
		    "expected an object" : "expected an array");
	if (j->depth == PSKD_JSCAN_DEPTH)
		return pskd_jscan_fail(j, "nested too deeply");
	j->p++;
	j->kind[j->depth] = (unsigned char)c;
	j->first[j->depth++] = 1;
	return 1;
}

int
pskd_jscan_object(struct pskd_jscan *j)
{
	return enter(j, '{');
}

int
pskd_jscan_array(struct pskd_jscan *j)
{
	return enter(j, '[');
}

/* Before a member or an element: 1 if one follows, 0 at the close. */
static int
another(struct pskd_jscan *j, int close)
{
	if (j->err != NULL)
		return 0;
	space(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		return 0;
	}
	if (!j->first[j->depth - 1]) {
		if (j->p == j->end || *j->p != ',')
			return pskd_jscan_fail(j, close == '}' ?
			    "expected ',' or '}'" : "expected ',' or ']'");
		j->p++;
	}
	j->first[j->depth - 1] = 0;
	return 1;
}

int
pskd_jscan_next(struct pskd_jscan *j)
{
	return another(j, ']');
}

int
pskd_jscan_member_at(struct pskd_jscan *j)
{
	if (!another(j, '}'))
		return 0;
	space(j);
	return 1;
}

int
pskd_jscan_colon(struct pskd_jscan *j)
{
	space(j);
	if (j->p == j->end || *j->p != ':')
		return pskd_jscan_fail(j, "expected ':'");
	j->p++;
	return 1;
}

int
pskd_jscan_name(struct pskd_jscan *j, struct pskd_buf *key)
{
	if (!pskd_jscan_string(j, key))
		return j->err ? 0 : pskd_jscan_fail(j, "expected a name");
	return pskd_jscan_colon(j);
}

int
pskd_jscan_member(struct pskd_jscan *j, struct pskd_buf *key)
{
	return pskd_jscan_member_at(j) && pskd_jscan_name(j, key);
}

static int
hex4(const unsigned char *p, unsigned *v)
{
	unsigned i, c;

	*v = 0;
	for (i = 0; i < 4; i++) {
		c = p[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			return 0;
		*v = *v << 4 | c;
	}
	return 1;
}

/* A \u escape at j->p (after the backslash): its code point into out. */
static int
unicode_escape(struct pskd_jscan *j, struct pskd_buf *out)
{
	unsigned hi, lo;
	uint32_t cp;

	if (j->end - j->p < 5 || !hex4(j->p + 1, &hi))
		return pskd_jscan_fail(j, "bad \\u escape");
	j->p += 5;
	cp = hi;
	if (hi >= 0xdc00 && hi < 0xe000)
		return pskd_jscan_fail(j, "lone surrogate in \\u escape");
	if (hi >= 0xd800 && hi < 0xdc00) {
		if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' ||
		    !hex4(j->p + 2, &lo) || lo < 0xdc00 || lo >= 0xe000)
			return pskd_jscan_fail(j, "lone surrogate in \\u "
			    "escape");
		j->p += 6;
		cp = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
	}
	pskd_buf_reserve(out, 4);
	out->len += pskd_utf8_encode(cp, out->p + out->len);
	return 1;
}

#if defined(__SSE2__)
/*
 * Sixteen bytes a step: the first '"', '\\' or control among them ends
 * the run, and only the bytes before it that are not ASCII are looked at
 * one by one, each a character's first (the rest of it is skipped with
 * it; a character the step cuts carries the next step past its end).
 * The tokens of a tokenizer.json are short and, in a vocabulary of
 * characters, mostly begin with U+2581: a run ends in the first step.
 * NULL at an ill-formed character; else where it stopped, with fewer
 * than 16 bytes left for the caller's byte loop.
 */
static const unsigned char *
plain16(const unsigned char *p, const unsigned char *end, int *done)
{
	const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
	const __m128i ctl = _mm_set1_epi8(0x1f);
	unsigned stop, wide, lim, i, k, next;
	uint32_t cp;
	__m128i v;

	*done = 0;
	while (end - p >= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)p);
		stop = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs)),
		    _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v)));
		lim = stop != 0 ? (unsigned)__builtin_ctz(stop) : 16;
		wide = (unsigned)_mm_movemask_epi8(v) & ((1u << lim) - 1);
		next = lim;
		while (wide != 0) {
			i = (unsigned)__builtin_ctz(wide);
			if ((k = (unsigned)pskd_utf8_decode(p + i,
			    (size_t)(end - p - i), &cp)) == 0)
				return NULL;
			/* A stop is ASCII, so no character runs past it. */
			if (i + k >= lim) {
				next = i + k;
				break;
			}
			wide &= ~0u << (i + k);
		}
		p += next;
		if (stop != 0) {
			*done = 1;
			return p;
		}
	}
	return p;
}
#endif

/* The end of a run of plain string bytes from p: UTF-8, no '"', '\\' or
 * control character; NULL at an ill-formed UTF-8 sequence.  simd: the
 * level, SSE2's steps or eight bytes at a time. */
static const unsigned char *
plain(const unsigned char *p, const unsigned char *end, int simd)
{
	uint32_t cp;
	size_t k;

#if defined(__SSE2__)
	if (simd >= PSKD_SIMD_SSE2) {
		int done;

		if ((p = plain16(p, end, &done)) == NULL || done)
			return p;
	}
#else
	(void)simd;
#endif
	while (p < end) {
		/*
		 * Eight bytes at a time while they are ASCII and none is '"',
		 * '\\' or a control: a byte b has its top bit set in
		 * b - 0x20 (below 0x20), in (b ^ '"') - 1 and (b ^ '\\') - 1
		 * (equal), or in b (not ASCII).
		 */
		while (end - p >= 8) {
			uint64_t v, hi = 0x8080808080808080ULL,
			    one = 0x0101010101010101ULL;

			memcpy(&v, p, 8);
			if (((v | (v - one * 0x20) | ((v ^ one * '"') - one) |
			    ((v ^ one * '\\') - one)) & hi) != 0)
				break;
			p += 8;
		}
		if (p >= end)
			break;
		if (*p < 0x80) {
			if (*p == '"' || *p == '\\' || *p < 0x20)
				break;
			p++;
			continue;
		}
		if ((k = pskd_utf8_decode(p, (size_t)(end - p), &cp)) == 0)
			return NULL;
		p += k;
	}
	return p;
}

const unsigned char *
pskd_jscan_plain(const unsigned char *p, const unsigned char *end, int simd)
{
	return plain(p, end, simd);
}

int
pskd_jscan_str(struct pskd_jscan *j, const unsigned char **s, size_t *n,
    struct pskd_buf *scratch)
{
	const unsigned char *q;
	unsigned char c;

	if (pskd_jscan_peek(j) != '"')
		return j->err ? 0 : pskd_jscan_fail(j, "expected a string");
	j->p++;
	if ((q = plain(j->p, j->end, j->simd)) == NULL)
		return pskd_jscan_fail(j, "invalid UTF-8 in a string");
	if (q < j->end && *q == '"') {
		/* No escape: the text in place. */
		*s = j->p;
		*n = (size_t)(q - j->p);
		j->p = q + 1;
		return 1;
	}
	scratch->len = 0;
	for (;;) {
		if ((q = plain(j->p, j->end, j->simd)) == NULL)
			return pskd_jscan_fail(j, "invalid UTF-8 in a string");
		pskd_buf_add(scratch, j->p, (size_t)(q - j->p));
		j->p = q;
		if (q == j->end)
			return pskd_jscan_fail(j, "unterminated string");
		if (*q == '"')
			break;
		if (*q < 0x20)
			return pskd_jscan_fail(j, "control character in a "
			    "string");
		if (j->end - j->p < 2)
			return pskd_jscan_fail(j, "unterminated string");
		switch (c = j->p[1]) {
		case '"': case '\\': case '/':
			break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u':
			j->p++;
			if (!unicode_escape(j, scratch))
				return 0;
			continue;
		default:
			return pskd_jscan_fail(j, "bad escape in a string");
		}
		pskd_buf_addc(scratch, c);
		j->p += 2;
	}
	j->p++;
	*s = scratch->p;
	*n = scratch->len;
	return 1;
}

int
pskd_jscan_string(struct pskd_jscan *j, struct pskd_buf *out)
{
	const unsigned char *s;
	size_t n;

	if (!pskd_jscan_str(j, &s, &n, out))
		return 0;
	if (s != out->p) {
		out->len = 0;
		pskd_buf_add(out, s, n);
	}
	pskd_buf_reserve(out, 1);
	out->p[out->len] = '\0';
	return 1;
}

/* The extent of a number at j->p; its end, or NULL if malformed. */
static const unsigned char *
number_end(const unsigned char *p, const unsigned char *end)
{
	if (p < end && *p == '-')
		p++;
	if (p == end || *p < '0' || *p > '9')
		return NULL;
	if (*p == '0')
		p++;
	else
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	if (p < end && *p == '.') {
		if (++p == end || *p < '0' || *p > '9')
			return NULL;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end || *p < '0' || *p > '9')
			return NULL;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	return p;
}

int
pskd_jscan_int(struct pskd_jscan *j, int64_t min, int64_t max, int64_t *v)
{
	const unsigned char *p, *e, *lim;
	uint64_t u = 0;
	int neg;

	if (pskd_jscan_peek(j) != PSKD_J_NUMBER)
		return j->err ? 0 : pskd_jscan_fail(j, "expected a number");
	/*
	 * The usual, a vocab's id: up to 18 digits (no overflow) and no
	 * fraction, exponent or sign; anything else the general way.
	 */
	p = j->p;
	if (*p >= '0' && *p <= '9') {
		lim = j->end - p > 18 ? p + 18 : j->end;
		if (*p == '0')
			e = p + 1;	/* JSON's 0 has no digit after it */
		else
			for (e = p; e < lim && (unsigned)(*e - '0') < 10; e++)
				u = u * 10 + (uint64_t)(*e - '0');
		if (e == j->end || (*e != '.' && *e != 'e' && *e != 'E' &&
		    (*e < '0' || *e > '9'))) {
			if ((int64_t)u < min || (int64_t)u > max)
				return pskd_jscan_fail(j, "number out of "
				    "range");
			*v = (int64_t)u;
			j->p = e;
			return 1;
		}
		u = 0;
	}
	if ((e = number_end(j->p, j->end)) == NULL)
		return pskd_jscan_fail(j, "malformed number");
	neg = *j->p == '-';
	for (p = j->p + neg; p < e; p++) {
		if (*p < '0' || *p > '9' || u > (uint64_t)INT64_MAX / 10)
			return pskd_jscan_fail(j, "expected a whole number");
		u = u * 10 + (uint64_t)(*p - '0');
	}
	if (u > (uint64_t)INT64_MAX)
		return pskd_jscan_fail(j, "number out of range");
	*v = neg ? -(int64_t)u : (int64_t)u;
	if (*v < min || *v > max)
		return pskd_jscan_fail(j, "number out of range");
	j->p = e;
	return 1;
}

static int
word(struct pskd_jscan *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return pskd_jscan_fail(j, "malformed value");
	j->p += n;
	return 1;
}

int
pskd_jscan_bool(struct pskd_jscan *j, int *v)
{
	int c = pskd_jscan_peek(j);

	if (c != PSKD_J_TRUE && c != PSKD_J_FALSE)
		return j->err ? 0 : pskd_jscan_fail(j, "expected true or "
		    "false");
	*v = c == PSKD_J_TRUE;
	return word(j, *v ? "true" : "false");
}

int
pskd_jscan_null(struct pskd_jscan *j)
{
	if (pskd_jscan_peek(j) != PSKD_J_NULL)
		return 0;
	return word(j, "null");
}

/*
 * A string skipped: to its closing quote, over escapes; neither decoded
 * nor checked (a value a reader wants it reads, and that checks it).
 */
static int
skip_string(struct pskd_jscan *j)
{
	const unsigned char *q = j->p + 1;

	for (;;) {
		while (q < j->end && *q != '"' && *q != '\\')
			q++;
		if (q >= j->end)
			return pskd_jscan_fail(j, "unterminated string");
		if (*q == '"')
			break;
		q += 2;
	}
	j->p = q + 1;
	return 1;
}

int
pskd_jscan_skip(struct pskd_jscan *j)
{
	struct pskd_buf scratch = { 0 };
	const unsigned char *e;
	int depth = j->depth, ok = 1;

	while (ok) {
		switch (pskd_jscan_peek(j)) {
		case '{': ok = pskd_jscan_object(j); break;
		case '[': ok = pskd_jscan_array(j); break;
		case '"': ok = skip_string(j); break;
		case PSKD_J_NUMBER:
			if ((e = number_end(j->p, j->end)) == NULL)
				ok = pskd_jscan_fail(j, "malformed number");
			else
				j->p = e;
			break;
		case 't': ok = word(j, "true"); break;
		case 'f': ok = word(j, "false"); break;
		case 'n': ok = word(j, "null"); break;
		default:
			ok = j->err ? 0 : pskd_jscan_fail(j, "expected a "
			    "value");
		}
		/* The next value inside what was entered, or the way out. */
		while (ok && j->depth > depth) {
			if (j->kind[j->depth - 1] == '{' ?
			    pskd_jscan_member(j, &scratch) :
			    pskd_jscan_next(j))
				break;
			ok = j->err == NULL;
		}
		if (j->depth == depth)
			break;
	}
	pskd_buf_free(&scratch);
	return ok && j->err == NULL;
}

/* ---- a pass by the brackets ------------------------------------------- */

/* Bit i: byte i of 64 is a quote, a backslash, an opening or a closing
   bracket ('[' and '{' are '{' with bit 5 set, ']' and '}' '}'). */
struct marks {
	uint64_t	 q, b, o, c;
};

#if defined(__SSE2__)
/* Bit i + sh: byte i of v is c. */
static inline uint64_t
eq16(__m128i v, char c, unsigned sh)
{
	return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
	    _mm_set1_epi8(c))) << sh;
}
#endif

#ifdef PASS_AVX2
__attribute__((target("avx2"))) static inline uint64_t
eq32(__m256i v, char c, int sh)
{
	return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v,
	    _mm256_set1_epi8(c))) << sh;
}

/* marks() 32 bytes a step. */
__attribute__((target("avx2"))) static inline void
marks32(const unsigned char *p, struct marks *m)
{
	__m256i v, w;
	int i;

	m->q = m->b = m->o = m->c = 0;
	for (i = 0; i < 2; i++) {
		v = _mm256_loadu_si256((const __m256i *)(const void *)
		    (p + 32 * i));
		w = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
		m->q |= eq32(v, '"', 32 * i);
		m->b |= eq32(v, '\\', 32 * i);
		m->o |= eq32(w, '{', 32 * i);
		m->c |= eq32(w, '}', 32 * i);
	}
}
#endif

__attribute__((always_inline)) static inline void
marks(const unsigned char *p, struct marks *m, int simd)
{
	int i;

#ifdef PASS_AVX2
	if (simd >= PSKD_SIMD_AVX2) {
		marks32(p, m);
		return;
	}
#endif
	m->q = m->b = m->o = m->c = 0;
#if defined(__SSE2__)
	if (simd >= PSKD_SIMD_SSE2) {
		__m128i v, w;

		for (i = 0; i < 4; i++) {
			v = _mm_loadu_si128((const __m128i *)(const void *)
			    (p + 16 * i));
			w = _mm_or_si128(v, _mm_set1_epi8(0x20));
			m->q |= eq16(v, '"', 16 * i);
			m->b |= eq16(v, '\\', 16 * i);
			m->o |= eq16(w, '{', 16 * i);
			m->c |= eq16(w, '}', 16 * i);
		}
		return;
	}
#else
	(void)simd;
#endif
	for (i = 0; i < 64; i++) {
		m->q |= (uint64_t)(p[i] == '"') << i;
		m->b |= (uint64_t)(p[i] == '\\') << i;
		m->o |= (uint64_t)((p[i] | 0x20) == '{') << i;
		m->c |= (uint64_t)((p[i] | 0x20) == '}') << i;
	}
}

/* Bit i of the result: the XOR of bits 0 to i of x. */
static inline uint64_t
prefix_xor(uint64_t x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	x ^= x << 32;
	return x;
}

/*
 * A byte at a time from p to end, in and esc the state (in a string, a
 * backslash before): the byte past the close that takes depth to 0, else
 * NULL at end.
 */
static const unsigned char *
pass_bytes(const unsigned char *p, const unsigned char *end, int *in,
    int *esc, long *depth)
{
	for (; p < end; p++) {
		if (*in) {
			if (*esc)
				*esc = 0;
			else if (*p == '\\')
				*esc = 1;
			else if (*p == '"')
				*in = 0;
		} else if (*p == '"')
			*in = 1;
		else if ((*p | 0x20) == '{')
			++*depth;
		else if ((*p | 0x20) == '}' && --*depth == 0)
			return p + 1;
	}
	return NULL;
}

/*
 * Sixty-four bytes a step: the quotes paired by a running XOR give the
 * bytes inside strings, and the brackets outside them change the depth;
 * only a step whose closes could bring it to 0 looks at them one by one.
 * A step with a backslash goes a byte at a time (escapes are rare in a
 * tokenizer.json), and on until no escape is pending.  Every '"' outside
 * a string opens one and the first '"' not escaped closes it, in JSON as
 * here, and a value's brackets outside its strings are balanced: so for
 * JSON this ends where the value does.
 */
__attribute__((always_inline)) static inline int
pass(struct pskd_jscan *j, int simd)
{
	const unsigned char *p, *end = j->end, *at;
	struct marks m;
	uint64_t inside, o, c, s;
	long depth = 0;
	int in = 0, esc = 0, k;

	k = pskd_jscan_peek(j);
	if (k != '{' && k != '[')
		return pskd_jscan_skip(j);
	for (p = j->p; end - p >= 64; ) {
		marks(p, &m, simd);
		if (m.b != 0) {
			at = pass_bytes(p, p + 64, &in, &esc, &depth);
			p += 64;
			if (at == NULL && esc && p < end) {
				/* The escaped byte: none is pending past it. */
				at = pass_bytes(p, p + 1, &in, &esc, &depth);
				p++;
			}
			if (at != NULL) {
				j->p = at;
				return 1;
			}
			continue;
		}
		inside = prefix_xor(m.q) ^ (in ? ~0ULL : 0);
		in = (int)(inside >> 63);
		o = m.o & ~inside;
		c = m.c & ~inside;
		if (depth > __builtin_popcountll(c)) {
			depth += __builtin_popcountll(o) -
			    __builtin_popcountll(c);
			p += 64;
			continue;
		}
		for (s = o | c; s != 0; s &= s - 1) {
			k = __builtin_ctzll(s);
			if (o >> k & 1)
				depth++;
			else if (--depth == 0) {
				j->p = p + k + 1;
				return 1;
			}
		}
		p += 64;
	}
	if ((at = pass_bytes(p, end, &in, &esc, &depth)) != NULL) {
		j->p = at;
		return 1;
	}
	return pskd_jscan_skip(j);	/* no close: its error, where */
}

#ifdef PASS_AVX2
/* At the AVX2 level (which has POPCNT): its marks, and one instruction
 * for each count, not libgcc's call. */
__attribute__((target("avx2,popcnt"))) static int
pass_avx2(struct pskd_jscan *j)
{
	return pass(j, PSKD_SIMD_AVX2);
}
#endif

int
pskd_jscan_pass(struct pskd_jscan *j)
{
#ifdef PASS_AVX2
	if (j->simd >= PSKD_SIMD_AVX2)
		return pass_avx2(j);
#endif
	return pass(j, j->simd < PSKD_SIMD_AVX2 ? j->simd : PSKD_SIMD_SSE2);
}

int
pskd_jscan_end(struct pskd_jscan *j)
{
	if (j->err != NULL)
		return 0;
	space(j);
	if (j->p != j->end)
		return pskd_jscan_fail(j, "text after the document");
	return 1;
}
