/* normalize.c - text normalisation before shingling; see pskd-shingle(1). */
#include <string.h>
#include <utf8proc.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "frame.h"
#include "normalize.h"

#define SPACE	0x80	/* ascii[] value of a whitespace byte */
#define STEP	65536	/* input bytes between checks of nm->max */

void
pskd_norm_init(struct pskd_norm *nm, unsigned flags)
{
	unsigned c;

	nm->flags = flags;
	nm->max = 0;
	nm->memo = pskd_xcalloc((size_t)1 << PSKD_NORM_MEMO_BITS,
	    sizeof(*nm->memo));
#if defined(__x86_64__) && defined(__GNUC__)
	nm->avx2 = pskd_simd() && __builtin_cpu_supports("avx2") ? 1 : 0;
#else
	nm->avx2 = 0;
#endif
	nm->sse2 = pskd_simd();
	for (c = 0; c < 128; c++) {
		nm->ascii[c] = (unsigned char)c;
		if (c < 0x20 || c == 0x7f || c == ' ')
			nm->ascii[c] = SPACE;
		else if ((flags & PSKD_NORM_CASE) && c >= 'A' && c <= 'Z')
			nm->ascii[c] = (unsigned char)(c - 'A' + 'a');
		else if ((flags & PSKD_NORM_DIGITS) && c >= '0' && c <= '9')
			nm->ascii[c] = '0';
		else if ((flags & PSKD_NORM_PUNCT) && !(c >= 'a' && c <= 'z') &&
		    !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9'))
			nm->ascii[c] = SPACE;
	}
	for (c = 0; c < 128; c++)
		nm->word[c] = nm->ascii[c] == SPACE ? ' ' :
		    (uint16_t)(0x100 | nm->ascii[c]);
	for (c = 0; c < 256; c++) {
		unsigned b, k = 0;

		nm->spos[c] = 0;
		for (b = 0; b < 8; b++)
			if (c >> b & 1 && k < 4)
				nm->spos[c] |= (uint32_t)b << 8 * k++;
		nm->scount[c] = (unsigned char)k;
	}
}

/*
 * Where the output stands.  In collapsing mode a space is written as soon
 * as a word ends (its offset noted in seps at once), and one left at the
 * very end is taken back: sp says the output is empty or ends in a space,
 * so that a space that follows writes nothing.
 */
struct norm_out {
	unsigned char	*q;		/* where the text starts in out */
	size_t		 l;		/* bytes written after q */
	uint32_t	*sv;		/* the separators, NULL if not wanted */
	size_t		 ns;
	int		 sp;
};

/*
 * Room for what may be written from the input left bytes before its end:
 * ASCII writes at most a byte a byte, and whole 16- or 32-byte chunks
 * only where that many bytes are left; at most one separator per 2 bytes,
 * stored four at a time.  (A code point outside ASCII asks for 128 more.)
 */
static inline void
room(struct norm_out *o, struct pskd_buf *out, size_t start,
    struct pskd_buf *seps, size_t left)
{
	if (out->cap - start - o->l < left + 16) {
		out->len = start + o->l;
		pskd_buf_reserve(out, left + 16);
		o->q = out->p + start;
	}
	if (o->sv != NULL && seps->cap - 4 * o->ns < 4 * (left / 2 + 6)) {
		seps->len = 4 * o->ns;
		pskd_buf_reserve(seps, 4 * (left / 2 + 6));
		o->sv = (uint32_t *)(void *)seps->p;
	}
}

/* The class of a code point after case folding and decomposition. */
static utf8proc_int32_t
map_cp(const struct pskd_norm *nm, utf8proc_int32_t cp)
{
	switch (utf8proc_category(cp)) {
	case UTF8PROC_CATEGORY_ZS:
	case UTF8PROC_CATEGORY_ZL:
	case UTF8PROC_CATEGORY_ZP:
	case UTF8PROC_CATEGORY_CC:
		return -1;
	case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD:
	case UTF8PROC_CATEGORY_PS: case UTF8PROC_CATEGORY_PE:
	case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF:
	case UTF8PROC_CATEGORY_PO: case UTF8PROC_CATEGORY_SM:
	case UTF8PROC_CATEGORY_SC: case UTF8PROC_CATEGORY_SK:
	case UTF8PROC_CATEGORY_SO:
		return (nm->flags & PSKD_NORM_PUNCT) ? -1 : cp;
	case UTF8PROC_CATEGORY_ND:
		return (nm->flags & PSKD_NORM_DIGITS) ? '0' : cp;
	default:
		return cp;
	}
}

/*
 * Write the normalised bytes of one code point, b[0..len) with ' ' for a
 * space: a space after a space writes nothing when collapsing.  The caller
 * made room.
 */
static inline void
put_bytes(struct norm_out *o, const unsigned char *b, size_t len,
    int collapse)
{
	size_t k;

	for (k = 0; k < len; k++) {
		if (b[k] != ' ') {
			o->q[o->l++] = b[k];
			o->sp = 0;
			continue;
		}
		if (collapse && o->sp)
			continue;
		if (collapse && o->sv != NULL)
			o->sv[o->ns++] = (uint32_t)o->l;
		o->q[o->l++] = ' ';
		o->sp = 1;
	}
}

/* The memo slot of a code point's UTF-8 bytes (as a little-endian key). */
static inline struct pskd_norm_memo *
memo_slot(const struct pskd_norm *nm, uint32_t key)
{
	return &nm->memo[(key * 0x9E3779B1u) >> (32 - PSKD_NORM_MEMO_BITS)];
}

/*
 * One code point at s[0..n), key its k bytes (0 if none): decoded,
 * decomposed, folded and mapped by utf8proc, written at o (the caller made
 * room for 128 bytes), and remembered in the memo when it took k bytes and
 * is short enough.  Returns the bytes it took.
 */
static size_t
norm_cp(const struct pskd_norm *nm, struct norm_out *o, const unsigned char *s,
    size_t n, uint32_t key, size_t k, int collapse)
{
	struct pskd_norm_memo *e;
	utf8proc_int32_t d[32];
	utf8proc_ssize_t nd, j;
	unsigned char b[32 * 4];
	uint32_t cp;
	size_t len, nb = 0;
	int last = 0, opts = 0;

	if (nm->flags & PSKD_NORM_CASE)
		opts |= UTF8PROC_CASEFOLD;
	if (nm->flags & PSKD_NORM_MARKS)
		opts |= UTF8PROC_COMPAT | UTF8PROC_DECOMPOSE |
		    UTF8PROC_STRIPMARK;
	len = pskd_utf8_decode(s, n, &cp);
	if (len == 0)
		len = 1, cp = 0xfffd;	/* callers pass valid UTF-8 */
	nd = utf8proc_decompose_char((utf8proc_int32_t)cp, d, 32,
	    (utf8proc_option_t)opts, &last);
	if (nd < 0 || nd > 32)
		d[0] = (utf8proc_int32_t)cp, nd = 1;
	for (j = 0; j < nd; j++) {
		utf8proc_int32_t m = map_cp(nm, d[j]);

		/* No code point maps to U+0020, which is a space. */
		if (m < 0)
			b[nb++] = ' ';
		else
			nb += pskd_utf8_encode((uint32_t)m, b + nb);
	}
	if (key != 0 && len == k && nb <= sizeof(e->out)) {
		e = memo_slot(nm, key);
		e->key = key;
		e->len = (unsigned char)nb;
		memcpy(e->out, b, nb);
	}
	put_bytes(o, b, nb, collapse);
	return len;
}

/*
 * A code point of two or more bytes at s[0..n): from the memo when it is
 * there (text outside ASCII repeats few code points), else from utf8proc.
 * The key is the code point's bytes, its length read from the first, so
 * a hit needs no decoding; a mismatch in length or a malformed sequence
 * only misses.  Returns the bytes it took.
 */
static inline size_t
norm_multi(const struct pskd_norm *nm, struct norm_out *o,
    const unsigned char *s, size_t n, int collapse)
{
	const struct pskd_norm_memo *e;
	size_t k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	uint32_t key = 0;

	if (k <= n) {
		key = (uint32_t)s[0] | (uint32_t)s[1] << 8;
		if (k > 2)
			key |= (uint32_t)s[2] << 16;
		if (k > 3)
			key |= (uint32_t)s[3] << 24;
		e = memo_slot(nm, key);
		if (e->key == key) {
			put_bytes(o, e->out, e->len, collapse);
			return k;
		}
	}
	return norm_cp(nm, o, s, n, key, k, collapse);
}

/*
 * ASCII bytes s[i..lim) one by one, branch-free (word boundaries are
 * random): a byte is written unless it is a space after a space, and a
 * space written is a separator.
 */
static inline size_t
norm_ascii(const struct pskd_norm *nm, struct norm_out *o,
    const unsigned char *s, size_t i, size_t lim, int collapse)
{
	unsigned char *q = o->q;
	size_t l = o->l, ns = o->ns, sp = (size_t)o->sp, w = 0, put;
	uint32_t *sv = o->sv;
	unsigned e;

	if (!collapse) {
		for (; i < lim && s[i] < 0x80; i++)
			q[l++] = (unsigned char)nm->word[s[i]];
		o->l = l;
		return i;
	}
	for (; i < lim && s[i] < 0x80; i++) {
		e = nm->word[s[i]];
		w = e >> 8;
		put = w | (sp ^ 1);
		q[l] = (unsigned char)e;
		if (sv != NULL) {
			sv[ns] = (uint32_t)l;
			ns += put & (w ^ 1);
		}
		l += put;
		sp = w ^ 1;
	}
	o->l = l, o->ns = ns, o->sp = (int)sp;
	return i;
}

#ifdef __SSE2__
/*
 * Sixteen ASCII bytes at a time while no byte needs dropping: the map as
 * compares, the spaces as a bit mask, the chunk stored whole.  A chunk
 * with a byte of 0x80 or more, or (collapsing) with a space after a space,
 * is left to the byte loops.  Returns the new input offset.
 */
static inline size_t
norm_ascii16(const struct pskd_norm *nm, struct norm_out *o,
    const unsigned char *s, size_t i, size_t n, int collapse)
{
	const __m128i at = _mm_set1_epi8('@'), lbr = _mm_set1_epi8('[');
	const __m128i bq = _mm_set1_epi8('`'), lbc = _mm_set1_epi8('{');
	const __m128i sl = _mm_set1_epi8('/'), co = _mm_set1_epi8(':');
	const __m128i ex = _mm_set1_epi8('!'), del = _mm_set1_epi8(0x7f);
	const __m128i sp = _mm_set1_epi8(' '), zero = _mm_set1_epi8('0');
	const __m128i caseadd = _mm_set1_epi8(
	    (nm->flags & PSKD_NORM_CASE) ? 0x20 : 0);
	const __m128i digits = _mm_set1_epi8(
	    (nm->flags & PSKD_NORM_DIGITS) ? -1 : 0);
	const __m128i punct = _mm_set1_epi8(
	    (nm->flags & PSKD_NORM_PUNCT) ? -1 : 0);
	unsigned char *q = o->q;
	size_t l = o->l, ns = o->ns;
	uint32_t *sv = o->sv;
	unsigned mask, prev = (unsigned)o->sp;

	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)
		    (s + i));
		__m128i up, lo, dg, alnum, space, m;

		if (_mm_movemask_epi8(v) != 0)
			break;
		up = _mm_and_si128(_mm_cmpgt_epi8(v, at),
		    _mm_cmplt_epi8(v, lbr));
		lo = _mm_and_si128(_mm_cmpgt_epi8(v, bq),
		    _mm_cmplt_epi8(v, lbc));
		dg = _mm_and_si128(_mm_cmpgt_epi8(v, sl),
		    _mm_cmplt_epi8(v, co));
		alnum = _mm_or_si128(_mm_or_si128(up, lo), dg);
		space = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, ex),
		    _mm_cmpeq_epi8(v, del)), _mm_andnot_si128(alnum, punct));
		mask = (unsigned)_mm_movemask_epi8(space);
		if (collapse && (mask & (mask << 1 | prev)) != 0)
			break;
		m = _mm_or_si128(v, _mm_and_si128(up, caseadd));
		dg = _mm_and_si128(dg, digits);
		m = _mm_or_si128(_mm_andnot_si128(dg, m),
		    _mm_and_si128(dg, zero));
		m = _mm_or_si128(_mm_andnot_si128(space, m),
		    _mm_and_si128(space, sp));
		_mm_storeu_si128((__m128i *)(void *)(q + l), m);
		prev = mask >> 15;
		if (sv != NULL) {
			/*
			 * No two spaces touch, so each half has at most four:
			 * their offsets from a table, widened, stored whole.
			 */
			__m128i z = _mm_setzero_si128(), p;
			unsigned b = mask & 0xff, c = mask >> 8;

			p = _mm_cvtsi32_si128((int)nm->spos[b]);
			p = _mm_unpacklo_epi16(_mm_unpacklo_epi8(p, z), z);
			_mm_storeu_si128((__m128i *)(void *)(sv + ns),
			    _mm_add_epi32(p, _mm_set1_epi32((int)l)));
			ns += nm->scount[b];
			p = _mm_cvtsi32_si128((int)nm->spos[c]);
			p = _mm_unpacklo_epi16(_mm_unpacklo_epi8(p, z), z);
			_mm_storeu_si128((__m128i *)(void *)(sv + ns),
			    _mm_add_epi32(p, _mm_set1_epi32((int)l + 8)));
			ns += nm->scount[c];
		}
		l += 16;
	}
	o->l = l, o->ns = ns;
	if (collapse)
		o->sp = (int)prev;
	return i;
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2	1

/* The separators of an 8-bit piece of the space mask, at offset l. */
__attribute__((target("avx2"))) static inline size_t
seps8(const struct pskd_norm *nm, uint32_t *sv, size_t ns, unsigned b,
    size_t l)
{
	__m128i p = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)nm->spos[b]));

	_mm_storeu_si128((__m128i *)(void *)(sv + ns),
	    _mm_add_epi32(p, _mm_set1_epi32((int)l)));
	return ns + nm->scount[b];
}

/*
 * norm_ascii16() thirty-two bytes at a time, for processors with AVX2;
 * what it leaves (a chunk it cannot store whole) goes to norm_ascii16().
 */
__attribute__((target("avx2"))) static size_t
norm_ascii32(const struct pskd_norm *nm, struct norm_out *o,
    const unsigned char *s, size_t i, size_t n, int collapse)
{
	const __m256i at = _mm256_set1_epi8('@'), lbr = _mm256_set1_epi8('[');
	const __m256i bq = _mm256_set1_epi8('`'), lbc = _mm256_set1_epi8('{');
	const __m256i sl = _mm256_set1_epi8('/'), co = _mm256_set1_epi8(':');
	const __m256i ex = _mm256_set1_epi8('!'), del = _mm256_set1_epi8(0x7f);
	const __m256i sp = _mm256_set1_epi8(' '), zero = _mm256_set1_epi8('0');
	const __m256i caseadd = _mm256_set1_epi8(
	    (nm->flags & PSKD_NORM_CASE) ? 0x20 : 0);
	const __m256i digits = _mm256_set1_epi8(
	    (nm->flags & PSKD_NORM_DIGITS) ? -1 : 0);
	const __m256i punct = _mm256_set1_epi8(
	    (nm->flags & PSKD_NORM_PUNCT) ? -1 : 0);
	unsigned char *q = o->q;
	size_t l = o->l, ns = o->ns;
	uint32_t *sv = o->sv;
	uint64_t mask, prev = (uint64_t)o->sp;

	for (; i + 32 <= n; i += 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)
		    (s + i));
		__m256i up, lo, dg, alnum, space, m;

		if (_mm256_movemask_epi8(v) != 0)
			break;
		up = _mm256_and_si256(_mm256_cmpgt_epi8(v, at),
		    _mm256_cmpgt_epi8(lbr, v));
		lo = _mm256_and_si256(_mm256_cmpgt_epi8(v, bq),
		    _mm256_cmpgt_epi8(lbc, v));
		dg = _mm256_and_si256(_mm256_cmpgt_epi8(v, sl),
		    _mm256_cmpgt_epi8(co, v));
		alnum = _mm256_or_si256(_mm256_or_si256(up, lo), dg);
		space = _mm256_or_si256(_mm256_or_si256(
		    _mm256_cmpgt_epi8(ex, v), _mm256_cmpeq_epi8(v, del)),
		    _mm256_andnot_si256(alnum, punct));
		mask = (uint32_t)_mm256_movemask_epi8(space);
		if (collapse && (mask & (mask << 1 | prev)) != 0)
			break;
		m = _mm256_or_si256(v, _mm256_and_si256(up, caseadd));
		dg = _mm256_and_si256(dg, digits);
		m = _mm256_blendv_epi8(m, zero, dg);
		m = _mm256_blendv_epi8(m, sp, space);
		_mm256_storeu_si256((__m256i *)(void *)(q + l), m);
		prev = mask >> 31;
		if (sv != NULL) {
			ns = seps8(nm, sv, ns, (unsigned)mask & 0xff, l);
			ns = seps8(nm, sv, ns, (unsigned)(mask >> 8) & 0xff,
			    l + 8);
			ns = seps8(nm, sv, ns, (unsigned)(mask >> 16) & 0xff,
			    l + 16);
			ns = seps8(nm, sv, ns, (unsigned)(mask >> 24), l + 24);
		}
		l += 32;
	}
	o->l = l, o->ns = ns;
	if (collapse)
		o->sp = (int)prev;
	return i;
}
#endif

int
pskd_norm_text(const struct pskd_norm *nm, struct pskd_buf *out,
    const unsigned char *s, size_t n, int words, struct pskd_buf *seps)
{
	struct norm_out o;
	size_t i = 0, lim, end, start = out->len;
	int collapse = words || (nm->flags & PSKD_NORM_SPACE);

	if (!collapse)
		seps = NULL;
	o.q = out->p + start;
	o.l = 0;
	o.sv = NULL;
	o.ns = 0;
	o.sp = 1;
	if (seps != NULL) {
		if (seps->p == NULL)	/* o.sv says whether seps are wanted */
			pskd_buf_reserve(seps, 64);
		o.sv = (uint32_t *)(void *)seps->p;
		o.ns = seps->len / 4;
	}
	room(&o, out, start, seps, n);
	while (i < n) {
		/* With max, a step at a time, to stop soon after it. */
		end = nm->max != 0 && n - i > STEP ? i + STEP : n;
#ifdef HAVE_AVX2
		if (nm->avx2)
			i = norm_ascii32(nm, &o, s, i, end, collapse);
#endif
#ifdef __SSE2__
		if (nm->sse2)
			i = norm_ascii16(nm, &o, s, i, end, collapse);
#endif
		lim = n - i < 16 ? n : i + 16;
		i = norm_ascii(nm, &o, s, i, lim, collapse);
		if (i < n && s[i] >= 0x80) {
			room(&o, out, start, seps, n - i + 128);
			i += norm_multi(nm, &o, s + i, n - i, collapse);
			room(&o, out, start, seps, n - i);
		}
		if (nm->max != 0 && o.l + 4 * o.ns > nm->max)
			break;
	}
	if (collapse && o.l > 0 && o.q[o.l - 1] == ' ') {
		o.l--;		/* the space after the last word */
		if (o.sv != NULL)
			o.ns--;
	}
	out->len = start + o.l;
	if (seps != NULL)
		seps->len = 4 * o.ns;
	return nm->max != 0 && o.l + 4 * o.ns > nm->max ? -1 : 0;
}
