/*
 * json.c - validate a JSON Lines line (one object) and pull out the
 * members a program needs (dotted paths into nested objects), unescaped, in
 * one pass.
 */
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "pskd.h"

#define MAXDEPTH 256

struct scan {
	const unsigned char *p;		/* the line */
	size_t		 n;
	size_t		 i;		/* cursor */
	char		*err;
	size_t		 errsize;
	size_t		*erroff;
};

static int
fail(struct scan *s, size_t at, const char *msg)
{
	snprintf(s->err, s->errsize, "%s", msg);
	*s->erroff = at;
	return -1;
}

static void
skipws(struct scan *s)
{
	s->i = (size_t)(pskd_json_blanks(s->p + s->i, s->p + s->n) - s->p);
}

static int
hex4(struct scan *s, size_t at, uint32_t *v)
{
	size_t k;
	unsigned c;

	if (at + 4 > s->n)
		return fail(s, at, "truncated \\u escape");
	*v = 0;
	for (k = 0; k < 4; k++) {
		c = s->p[at + k];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			c = c - 'A' + 10;
		else
			return fail(s, at + k, "invalid \\u escape");
		*v = *v << 4 | c;
	}
	return 0;
}

#ifdef __SSE2__
/*
 * Skip sixteen bytes at a time while none is '"', '\\', a control
 * character or >= 0x80 (negative: one signed compare takes both); stop on
 * the first such byte, or short of the end.
 */
static inline size_t
skip_plain16(const unsigned char *p, size_t i, size_t n)
{
	const __m128i quote = _mm_set1_epi8('"'), bsl = _mm_set1_epi8('\\');
	const __m128i ctl = _mm_set1_epi8(0x20);
	unsigned mask;

	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)
		    (p + i));

		mask = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bsl)),
		    _mm_cmplt_epi8(v, ctl)));
		if (mask != 0)
			return i + (size_t)__builtin_ctz(mask);
	}
	return i;
}
#endif

/*
 * The end of the run of string bytes from p[i] that need no escape
 * handling: it stops at '"', '\\', a control character, the end, or (with
 * *bad set) the first byte that is not well-formed UTF-8.  Other bytes
 * >= 0x80 are checked where they are, so the run is read once.
 */
static size_t
plain_run(const unsigned char *p, size_t i, size_t n, int *bad)
{
	uint32_t cp;
	size_t k;

#ifdef __SSE2__
	static int simd = -1;

	if (simd == -1)
		simd = pskd_simd();
#endif
	*bad = 0;
	for (;;) {
#ifdef __SSE2__
		if (simd)
			i = skip_plain16(p, i, n);
#endif
		while (i < n && p[i] != '"' && p[i] != '\\' && p[i] >= 0x20 &&
		    p[i] < 0x80)
			i++;
		if (i >= n || p[i] < 0x80)
			return i;
		k = pskd_utf8_decode(p + i, n - i, &cp);
		if (k == 0) {
			*bad = 1;
			return i;
		}
		i += k;
	}
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_RUN32	1

/* The bytes of v a JSON string holds only escaped: '"', '\\', < 0x20. */
__attribute__((target("avx2"))) static inline uint32_t
special32(__m256i v)
{
	return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
	    _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')),
	    _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'))),
	    _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v)));
}

/* The byte a one-letter escape stands for, 0 for none. */
static const unsigned char esc1[128] = {
	['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b', ['f'] = '\f',
	['n'] = '\n', ['r'] = '\r', ['t'] = '\t'
};

/*
 * For AVX2: the string bytes from p[i] unescaped to out, 32 at a time,
 * while they are plain, two- or three-byte UTF-8 sequences or one-letter
 * escapes; each chunk is stored whole and the output advanced by the
 * bytes it keeps, up to the end of its last whole character (the next
 * chunk starts at one cut there).  It stops short of the last 32 bytes of
 * the line and on anything else ('"', a \u escape, a control character,
 * other bytes of 0x80 or more), which string() goes on with.  A sequence
 * is taken only whole and well-formed: a lead C2..DF and one continuation
 * 80..BF, or a lead E1..EC or EE..EF (no overlong form, no surrogate:
 * E0 and ED are left to string()) and two; each continuation a lead's.
 * The caller made room for n - i + 32 bytes.
 */
__attribute__((target("avx2,bmi"))) static size_t
run32(const unsigned char *p, size_t i, size_t n, struct pskd_buf *out)
{
	const __m256i c2 = _mm256_set1_epi8((char)0xc2);
	const __m256i d1d = _mm256_set1_epi8(0x1d);
	const __m256i e1 = _mm256_set1_epi8((char)0xe1);
	const __m256i d0b = _mm256_set1_epi8(0x0b);
	const __m256i ee = _mm256_set1_epi8((char)0xee);
	const __m256i d01 = _mm256_set1_epi8(0x01);
	const __m256i xc0 = _mm256_set1_epi8((char)0xc0);
	const __m256i x80 = _mm256_set1_epi8((char)0x80);
	unsigned char *q = out->p + out->len;
	uint64_t hi, sp, lead, lead3, cont, bad, ends;
	size_t l = 0, t, t0;
	__m256i v, x, y;
	unsigned e;

	while (i + 32 <= n) {
		v = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
		_mm256_storeu_si256((__m256i *)(void *)(q + l), v);
		sp = special32(v);
		hi = (uint32_t)_mm256_movemask_epi8(v);
		if ((sp | hi) == 0) {
			i += 32, l += 32;
			continue;
		}
		lead = lead3 = cont = 0;
		if (hi != 0) {
			x = _mm256_sub_epi8(v, c2);
			lead = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
			    _mm256_min_epu8(x, d1d), x));
			x = _mm256_sub_epi8(v, e1);
			y = _mm256_sub_epi8(v, ee);
			lead3 = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
			    _mm256_cmpeq_epi8(_mm256_min_epu8(x, d0b), x),
			    _mm256_cmpeq_epi8(_mm256_min_epu8(y, d01), y)));
			cont = (uint32_t)_mm256_movemask_epi8(
			    _mm256_cmpeq_epi8(_mm256_and_si256(v, xc0), x80));
		}
		bad = sp | (hi & ~lead & ~lead3 & ~cont) |
		    (cont ^ (lead << 1 | lead3 << 1 | lead3 << 2));
		t = t0 = (size_t)__builtin_ctzll(bad | (uint64_t)1 << 32);
		/* Back to the end of the last whole character before it. */
		ends = (~hi | lead << 1 | lead3 << 2) &
		    (((uint64_t)1 << t) - 1);
		if (t > 0)
			t = ends == 0 ? 0 : 64 - (size_t)__builtin_clzll(ends);
		i += t, l += t;
		if (t0 == 32)
			continue;	/* whole, or a character cut off */
		if (p[i] != '\\' || i + 1 >= n || p[i + 1] >= 0x80 ||
		    (e = esc1[p[i + 1]]) == 0)
			break;
		q[l++] = (unsigned char)e;
		i += 2;
	}
	out->len += l;
	return i;
}
#endif

/*
 * A string at s->i (on the opening quote).  With out != NULL, its unescaped
 * UTF-8 is appended there.
 */
static int
string(struct scan *s, struct pskd_buf *out)
{
	const unsigned char *p = s->p;
	size_t i = s->i + 1, run;
	uint32_t cp, lo;
	int bad;
#ifdef HAVE_RUN32
	int fast = out != NULL && s->n - i >= 64 &&
	    pskd_simd() >= PSKD_SIMD_AVX2;
#endif

	for (;;) {
#ifdef HAVE_RUN32
		if (fast) {
			pskd_buf_reserve(out, s->n - i + 32);
			i = run32(p, i, s->n, out);
		}
#endif
		run = i;
		i = plain_run(p, i, s->n, &bad);
		if (bad)
			return fail(s, i, "invalid UTF-8");
		if (i > run && out != NULL) {
			if (out->cap - out->len < i - run)
				pskd_buf_reserve(out, i - run);
			memcpy(out->p + out->len, p + run, i - run);
			out->len += i - run;
		}
		if (i >= s->n)
			return fail(s, s->i, "unterminated string");
		if (p[i] == '"')
			break;
		if (p[i] < 0x20)
			return fail(s, i, "control character in string");
		/* A backslash. */
		if (i + 1 >= s->n)
			return fail(s, i, "unterminated string");
		switch (p[i + 1]) {
		case '"': cp = '"'; break;
		case '\\': cp = '\\'; break;
		case '/': cp = '/'; break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case 'u':
			if (hex4(s, i + 2, &cp) == -1)
				return -1;
			if (cp >= 0xDC00 && cp <= 0xDFFF)
				return fail(s, i, "lone low surrogate in \\u escape");
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				if (i + 12 > s->n || p[i + 6] != '\\' ||
				    p[i + 7] != 'u')
					return fail(s, i,
					    "lone high surrogate in \\u escape");
				if (hex4(s, i + 8, &lo) == -1)
					return -1;
				if (lo < 0xDC00 || lo > 0xDFFF)
					return fail(s, i,
					    "lone high surrogate in \\u escape");
				cp = 0x10000 + ((cp - 0xD800) << 10) +
				    (lo - 0xDC00);
				i += 6;
			}
			i += 4;
			break;
		default:
			return fail(s, i, "invalid escape");
		}
		/* Escapes are frequent (newlines, \\u text): no calls for them. */
		if (out != NULL) {
			if (out->cap - out->len < 4)
				pskd_buf_reserve(out, 4);
			if (cp < 0x80)
				out->p[out->len++] = (unsigned char)cp;
			else
				out->len += pskd_utf8_encode(cp,
				    out->p + out->len);
		}
		i += 2;
	}
	s->i = i + 1;
	return 0;
}

static int
number(struct scan *s)
{
	const unsigned char *p = s->p;
	size_t i = s->i, start = s->i;

	if (i < s->n && p[i] == '-')
		i++;
	if (i < s->n && p[i] == '0')
		i++;
	else if (i < s->n && p[i] >= '1' && p[i] <= '9')
		while (i < s->n && p[i] >= '0' && p[i] <= '9')
			i++;
	else
		return fail(s, start, "invalid number");
	if (i < s->n && p[i] == '.') {
		i++;
		if (i >= s->n || p[i] < '0' || p[i] > '9')
			return fail(s, start, "invalid number");
		while (i < s->n && p[i] >= '0' && p[i] <= '9')
			i++;
	}
	if (i < s->n && (p[i] == 'e' || p[i] == 'E')) {
		i++;
		if (i < s->n && (p[i] == '+' || p[i] == '-'))
			i++;
		if (i >= s->n || p[i] < '0' || p[i] > '9')
			return fail(s, start, "invalid number");
		while (i < s->n && p[i] >= '0' && p[i] <= '9')
			i++;
	}
	s->i = i;
	return 0;
}

static int
literal(struct scan *s, const char *word)
{
	size_t k = strlen(word);

	if (s->n - s->i < k || memcmp(s->p + s->i, word, k) != 0)
		return fail(s, s->i, "invalid value");
	s->i += k;
	return 0;
}

/*
 * The wanted fields are dotted paths ("text", "meta.source"): a bit of
 * "active" for each field whose first depth segments name the object being
 * scanned.
 */
static int value(struct scan *, int, struct pskd_json_field *, size_t,
    uint32_t, uint32_t);

const char *
pskd_json_segment(const char *path, size_t d, size_t *len)
{
	const char *dot;

	for (; d > 0; d--) {
		if ((dot = strchr(path, '.')) == NULL)
			return NULL;
		path = dot + 1;
	}
	dot = strchr(path, '.');
	*len = dot ? (size_t)(dot - path) : strlen(path);
	return path;
}

static int
container(struct scan *s, int depth, int object, struct pskd_json_field *f,
    size_t nf, uint32_t active)
{
	unsigned char close = object ? '}' : ']';
	uint32_t here, deeper;
	const char *seg;
	size_t k, keyat, keylen, seglen;

	if (depth >= MAXDEPTH)
		return fail(s, s->i, "nested too deeply");
	s->i++;
	skipws(s);
	if (s->i < s->n && s->p[s->i] == close) {
		s->i++;
		return 0;
	}
	for (;;) {
		here = deeper = 0;
		if (object) {
			if (s->i >= s->n || s->p[s->i] != '"')
				return fail(s, s->i, "expected a member name");
			keyat = s->i + 1;
			if (string(s, NULL) == -1)
				return -1;
			keylen = s->i - 1 - keyat;
			/* Keys with escapes never match a wanted name. */
			for (k = 0; active != 0 && k < nf; k++) {
				if (!(active >> k & 1) ||
				    (seg = pskd_json_segment(f[k].name,
				    (size_t)depth, &seglen)) == NULL ||
				    seglen != keylen ||
				    memcmp(seg, s->p + keyat, keylen) != 0)
					continue;
				if (seg[seglen] == '\0')
					here |= 1u << k;
				else
					deeper |= 1u << k;
			}
			skipws(s);
			if (s->i >= s->n || s->p[s->i] != ':')
				return fail(s, s->i, "expected ':'");
			s->i++;
			skipws(s);
		}
		if (value(s, depth + 1, f, nf, here, deeper) == -1)
			return -1;
		skipws(s);
		if (s->i < s->n && s->p[s->i] == ',') {
			s->i++;
			skipws(s);
			continue;
		}
		if (s->i < s->n && s->p[s->i] == close) {
			s->i++;
			return 0;
		}
		return fail(s, s->i, object ? "expected ',' or '}'" :
		    "expected ',' or ']'");
	}
}

/* The last occurrence of a duplicated member wins: forget earlier ones. */
static void
forget(struct pskd_json_field *f, size_t nf, uint32_t set)
{
	size_t k;

	for (k = 0; set != 0 && k < nf; k++)
		if (set >> k & 1) {
			f[k].kind = PSKD_JSON_MISSING;
			f[k].value.len = 0;
			f[k].raw = NULL;
			f[k].rawlen = 0;
		}
}

static int
value(struct scan *s, int depth, struct pskd_json_field *f, size_t nf,
    uint32_t here, uint32_t deeper)
{
	struct pskd_json_field *want = NULL;
	size_t start = s->i, k;
	enum pskd_json_kind kind = PSKD_JSON_OTHER;
	int r;

	if (s->i >= s->n)
		return fail(s, s->i, "expected a value");
	for (k = 0; here != 0 && k < nf; k++)
		if (here >> k & 1) {
			want = &f[k];
			break;
		}
	forget(f, nf, here | deeper);
	switch (s->p[s->i]) {
	case '"':
		kind = PSKD_JSON_STRING;
		r = string(s, want ? &want->value : NULL);
		break;
	case '{':
		r = container(s, depth, 1, f, nf, deeper);
		break;
	case '[':
		r = container(s, depth, 0, NULL, 0, 0);
		break;
	case 't':
		r = literal(s, "true");
		break;
	case 'f':
		r = literal(s, "false");
		break;
	case 'n':
		r = literal(s, "null");
		break;
	default:
		kind = PSKD_JSON_NUMBER;
		r = number(s);
		break;
	}
	if (r != 0 || want == NULL)
		return r;
	for (; k < nf; k++)
		if (here >> k & 1) {
			f[k].kind = kind;
			f[k].raw = s->p + start;
			f[k].rawlen = s->i - start;
			if (&f[k] != want && kind == PSKD_JSON_STRING) {
				f[k].value.len = 0;
				pskd_buf_add(&f[k].value, want->value.p,
				    want->value.len);
			}
		}
	return 0;
}

int
pskd_json_fields(const unsigned char *line, size_t len,
    struct pskd_json_field *f, size_t n, char *err, size_t errsize,
    size_t *erroff)
{
	struct scan s = { line, len, 0, err, errsize, erroff };

	if (n > PSKD_JSON_MAXFIELDS)
		return fail(&s, 0, "too many fields wanted");
	forget(f, n, n == 32 ? UINT32_MAX : (1u << n) - 1);
	/* A CR before the newline is whitespace (CRLF files). */
	skipws(&s);
	if (s.i >= s.n)
		return fail(&s, s.i, "empty line, expected a JSON object");
	if (s.p[s.i] != '{')
		return fail(&s, s.i, "not a JSON object");
	if (container(&s, 0, 1, f, n, n == 32 ? UINT32_MAX : (1u << n) - 1) ==
	    -1)
		return -1;
	skipws(&s);
	if (s.i != s.n)
		return fail(&s, s.i, "trailing characters after the object");
	return 0;
}

#define QUOTE_BLOCK	4096	/* input bytes a reservation covers */

/* Whether one of the 8 bytes of w needs an escape: '"', '\\', < 0x20. */
static inline int
quote_any(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');

	return (((q - ones) & ~q) | ((b - ones) & ~b) |
	    ((w - ones * 0x20) & ~w)) & high ? 1 : 0;
}

#ifdef HAVE_RUN32
/*
 * For AVX2: plain bytes from p[i] to q, 32 at a time, each chunk stored
 * whole and the output advanced to its first byte that needs an escape;
 * stops there, or short of the last 32 bytes before lim.  Returns the
 * new input offset; *qp advanced.
 */
__attribute__((target("avx2,bmi"))) static size_t
quote32(const unsigned char *p, size_t i, size_t lim, unsigned char **qp)
{
	unsigned char *q = *qp;
	uint32_t m;
	__m256i v;

	while (i + 32 <= lim) {
		v = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
		_mm256_storeu_si256((__m256i *)(void *)q, v);
		if ((m = special32(v)) != 0) {
			i += (size_t)__builtin_ctz(m);
			q += __builtin_ctz(m);
			break;
		}
		i += 32, q += 32;
	}
	*qp = q;
	return i;
}
#endif

void
pskd_json_quote(struct pskd_buf *b, const unsigned char *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, lim;
	unsigned char c, *q;
	uint64_t w;
#ifdef HAVE_RUN32
	int avx2 = pskd_simd() >= PSKD_SIMD_AVX2;
#endif

	pskd_buf_addc(b, '"');
	while (i < n) {
		/*
		 * Room for a block, every byte of it escaped as \u00XX, and
		 * a whole chunk stored past its end.
		 */
		lim = n - i > QUOTE_BLOCK ? i + QUOTE_BLOCK : n;
		pskd_buf_reserve(b, 6 * (lim - i) + 40);
		q = b->p + b->len;
		while (i < lim) {
#ifdef HAVE_RUN32
			if (avx2)
				i = quote32(p, i, lim, &q);
#endif
			/* Eight plain bytes at once. */
			while (i + 8 <= lim) {
				memcpy(&w, p + i, 8);
				if (quote_any(w))
					break;
				memcpy(q, &w, 8);
				q += 8, i += 8;
			}
			if (i >= lim)
				break;
			c = p[i++];
			if (c >= 0x20 && c != '"' && c != '\\') {
				*q++ = c;
				continue;
			}
			*q++ = '\\';
			switch (c) {
			case '"': *q++ = '"'; break;
			case '\\': *q++ = '\\'; break;
			case '\n': *q++ = 'n'; break;
			case '\r': *q++ = 'r'; break;
			case '\t': *q++ = 't'; break;
			default:
				memcpy(q, "u00", 3);
				q[3] = (unsigned char)hex[c >> 4];
				q[4] = (unsigned char)hex[c & 15];
				q += 5;
			}
		}
		b->len = (size_t)(q - b->p);
	}
	pskd_buf_addc(b, '"');
}

void
pskd_json_append(struct pskd_buf *b, const unsigned char *line, size_t len,
    const unsigned char *members, size_t n)
{
	size_t close = len, k;

	/* The object's '}' is its last byte but white space ("\r"). */
	while (close > 0 && line[close - 1] != '}')
		close--;
	if (close == 0) {		/* not an object: as it was */
		pskd_buf_add(b, line, len);
		return;
	}
	close--;
	for (k = close; k > 0 && (line[k - 1] == ' ' || line[k - 1] == '\t' ||
	    line[k - 1] == '\r' || line[k - 1] == '\n'); k--)
		;
	pskd_buf_add(b, line, close);
	if (n > 0 && k > 0 && line[k - 1] != '{')
		pskd_buf_addc(b, ',');
	pskd_buf_add(b, members, n);
	pskd_buf_add(b, line + close, len - close);
}
