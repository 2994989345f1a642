/* utf8.c - strict UTF-8 (RFC 3629): no overlongs, surrogates or > U+10FFFF. */
#include <string.h>

#include "pskd.h"

/* The check a character at a time: ASCII runs skipped, the rest decoded. */
static size_t
check_chars(const unsigned char *s, size_t n)
{
	size_t i = 0, k;
	uint32_t cp;

	while ((i += pskd_utf8_ascii(s + i, n - i)) < n) {
		k = pskd_utf8_decode(s + i, n - i, &cp);
		if (k == 0)
			return i;
		i += k;
	}
	return n;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_CHECK_AVX2	1

/*
 * 16 bytes a step (SSSE3's shuffle, in AVX2's encoding), after Keiser and
 * Lemire, "Validating UTF-8 in less than one instruction per byte"
 * (2021): each byte and the one
 * before it, by three tables of 16 (the high and the low half of the one
 * before, the high half of this one), give the classes of error that a
 * pair of bytes can show; all but the last bit are errors outright.  The
 * last marks a continuation after a continuation, right exactly where
 * the byte two back begins three bytes or more, or the one three back
 * four.  A step that finds anything wrong, and the last bytes, are
 * checked again a character at a time from the start of the character
 * they begin in: the offset is then that check's.  Not 32 bytes a step:
 * that version, twice as fast alone, made pskd-tok 3-5 % slower on the
 * Xeon of make bench (where it checks a document at a time between other
 * work), the 16-byte one 2-6 % faster; why was not found.
 */
#define U_SHORT		0x01	/* a lead without its continuation */
#define U_LONG		0x02	/* a continuation after ASCII */
#define U_OVER3		0x04	/* E0 80..9F */
#define U_SURR		0x08	/* ED A0..BF */
#define U_LARGE		0x10	/* F4 90..BF, F5..FF 90..BF */
#define U_OVER2		0x20	/* C0, C1 and a continuation */
#define U_OVER4		0x40	/* F0 80..8F, F5..FF 80..8F */
#define U_TWO		0x80	/* two continuations */
#define U_ANY		(U_SHORT | U_LONG | U_TWO)

#define T16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p) \
	_mm_setr_epi8((char)(a), (char)(b), \
	    (char)(c), (char)(d), (char)(e), (char)(f), (char)(g), (char)(h), \
	    (char)(i), (char)(j), (char)(k), (char)(l), (char)(m), (char)(n), \
	    (char)(o), (char)(p))

__attribute__((target("avx2"))) static size_t
check_avx2(const unsigned char *s, size_t n)
{
	const __m128i hi1 = T16(U_LONG, U_LONG, U_LONG, U_LONG, U_LONG,
	    U_LONG, U_LONG, U_LONG, U_TWO, U_TWO, U_TWO, U_TWO,
	    U_SHORT | U_OVER2, U_SHORT, U_SHORT | U_OVER3 | U_SURR,
	    U_SHORT | U_LARGE | U_OVER4);
	const __m128i lo1 = T16(U_ANY | U_OVER3 | U_OVER2 | U_OVER4,
	    U_ANY | U_OVER2, U_ANY, U_ANY, U_ANY | U_LARGE,
	    U_ANY | U_LARGE | U_OVER4, U_ANY | U_LARGE | U_OVER4,
	    U_ANY | U_LARGE | U_OVER4, U_ANY | U_LARGE | U_OVER4,
	    U_ANY | U_LARGE | U_OVER4, U_ANY | U_LARGE | U_OVER4,
	    U_ANY | U_LARGE | U_OVER4, U_ANY | U_LARGE | U_OVER4,
	    U_ANY | U_LARGE | U_OVER4 | U_SURR, U_ANY | U_LARGE | U_OVER4,
	    U_ANY | U_LARGE | U_OVER4);
	const __m128i hi2 = T16(U_SHORT, U_SHORT, U_SHORT, U_SHORT, U_SHORT,
	    U_SHORT, U_SHORT, U_SHORT,
	    U_LONG | U_OVER3 | U_OVER2 | U_TWO | U_OVER4,
	    U_LONG | U_OVER3 | U_OVER2 | U_TWO | U_LARGE,
	    U_LONG | U_SURR | U_OVER2 | U_TWO | U_LARGE,
	    U_LONG | U_SURR | U_OVER2 | U_TWO | U_LARGE,
	    U_SHORT, U_SHORT, U_SHORT, U_SHORT);
	const __m128i nib = _mm_set1_epi8(0x0f);
	const __m128i x60 = _mm_set1_epi8(0x60), x70 = _mm_set1_epi8(0x70);
	const __m128i x80 = _mm_set1_epi8((char)0x80);
	__m128i prev = _mm_setzero_si128(), v, p1, p2, p3, sc, must;
	size_t i, j, k;

	for (i = 0; i + 16 <= n; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		if (_mm_movemask_epi8(_mm_or_si128(v, prev)) == 0) {
			prev = v;	/* ASCII after ASCII: nothing to see */
			continue;
		}
		/* The bytes 1, 2 and 3 back, from prev and v. */
		p1 = _mm_alignr_epi8(v, prev, 15);
		p2 = _mm_alignr_epi8(v, prev, 14);
		p3 = _mm_alignr_epi8(v, prev, 13);
		sc = _mm_and_si128(_mm_and_si128(
		    _mm_shuffle_epi8(hi1, _mm_and_si128(
		    _mm_srli_epi16(p1, 4), nib)),
		    _mm_shuffle_epi8(lo1, _mm_and_si128(p1, nib))),
		    _mm_shuffle_epi8(hi2, _mm_and_si128(
		    _mm_srli_epi16(v, 4), nib)));
		/* 0x80 where the byte 2 back is >= E0 or the one 3 back
		   >= F0. */
		must = _mm_and_si128(_mm_or_si128(_mm_subs_epu8(p2,
		    x60), _mm_subs_epu8(p3, x70)), x80);
		if (!_mm_testz_si128(_mm_xor_si128(sc, must),
		    _mm_xor_si128(sc, must)))
			break;
		prev = v;
	}
	/*
	 * From the start of the character of the byte before i, a
	 * character at a time: the step at i looks back at the 3 bytes
	 * before it, and all before that character is UTF-8.
	 */
	j = i > 0 ? i - 1 : 0;
	for (k = 0; k < 3 && j > 0 && (s[j] & 0xc0) == 0x80; k++)
		j--;
	return j + check_chars(s + j, n - j);
}
#endif

size_t
pskd_utf8_check_at(const unsigned char *s, size_t n, int simd)
{
#ifdef HAVE_CHECK_AVX2
	if (simd >= PSKD_SIMD_AVX2 && n >= 16)
		return check_avx2(s, n);
#else
	(void)simd;
#endif
	return check_chars(s, n);
}

size_t
pskd_utf8_check(const unsigned char *s, size_t n)
{
	static int simd = -1;

	if (simd == -1)
		simd = pskd_simd();
	return pskd_utf8_check_at(s, n, simd);
}

size_t
pskd_utf8_encode(uint32_t cp, unsigned char *out)
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xC0 | cp >> 6);
		out[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xE0 | cp >> 12);
		out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (unsigned char)(0xF0 | cp >> 18);
	out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}
