/*
 * scan.c - the byte scans the rules share: 64 bytes at a time (AVX-512)
 * or 16 (SSE2), as the processor and PSKD_SIMD allow, else a byte at a
 * time, with the same answers (tests/unit/test-quality-scan.c compares
 * them all).
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <immintrin.h>
#endif

#include "quality/quality.h"

static int vec = -1;

void
q_scan_simd(int level)
{
	vec = level < q_simd_max() ? level : q_simd_max();
}

int
q_simd_max(void)
{
#ifdef __SSE2__
	static int have = -1;

	if (have == -1) {
		__builtin_cpu_init();
		have = __builtin_cpu_supports("avx512f") &&
		    __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("popcnt") ? Q_AVX512 :
		    __builtin_cpu_supports("avx2") ? Q_AVX2 : Q_SSE2;
	}
	return have;
#else
	return Q_PORTABLE;
#endif
}

static inline int
simd(void)
{
	const char *e;
	int want = Q_AVX512;

	if (vec == -1) {
		if ((e = getenv("PSKD_SIMD")) != NULL)
			want = strcmp(e, "sse2") == 0 ? Q_SSE2 :
			    strcmp(e, "avx2") == 0 ? Q_AVX2 : Q_AVX512;
		q_scan_simd(pskd_simd() ? want : Q_PORTABLE);
	}
	return vec;
}

int
q_simd(void)
{
	return simd();
}

#ifdef __SSE2__
#define AVX512	__attribute__((target("avx512f,avx512bw,popcnt")))

/* The bytes of s[i..n) from i, up to 64, the rest zero. */
AVX512 static inline __m512i
load_upto64(const unsigned char *s, size_t i, size_t n)
{
	size_t k = n - i;

	return _mm512_maskz_loadu_epi8(k >= 64 ? ~(__mmask64)0 :
	    ((__mmask64)1 << k) - 1, s + i);
}

AVX512 static size_t
find2_512(const unsigned char *s, size_t n, unsigned char a, unsigned char b)
{
	const __m512i va = _mm512_set1_epi8((char)a), vb = _mm512_set1_epi8((char)b);
	__m512i v;
	uint64_t m;
	size_t i;

	for (i = 0; i < n; i += 64) {
		v = load_upto64(s, i, n);
		m = _mm512_cmpeq_epi8_mask(v, va) | _mm512_cmpeq_epi8_mask(v, vb);
		if (n - i < 64)
			m &= ((uint64_t)1 << (n - i)) - 1;
		if (m != 0)
			return i + (size_t)__builtin_ctzll(m);
	}
	return n;
}

AVX512 static size_t
cplen512(const unsigned char *s, size_t n)
{
	const __m512i lim = _mm512_set1_epi8(-65);
	size_t i, k = 0;

	/* the bytes past n are zero: each a code point, taken off */
	for (i = 0; i < n; i += 64)
		k += (size_t)_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(
		    load_upto64(s, i, n), lim));
	return k - (i - n);
}
#endif

size_t
q_find2(const unsigned char *s, size_t n, unsigned char a, unsigned char b)
{
	size_t i = 0;

#ifdef __SSE2__
	if (simd() >= Q_AVX512)
		return find2_512(s, n, a, b);
	if (simd()) {
		__m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
		__m128i v;
		unsigned m;

		for (; i + 16 <= n; i += 16) {
			v = _mm_loadu_si128((const __m128i *)(s + i));
			m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			    _mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)));
			if (m != 0)
				return i + (size_t)__builtin_ctz(m);
		}
	}
#endif
	for (; i < n; i++)
		if (s[i] == a || s[i] == b)
			return i;
	return n;
}

size_t
q_cplen(const unsigned char *s, size_t n)
{
	size_t i = 0, k = 0;

#ifdef __SSE2__
	if (simd() >= Q_AVX512)
		return cplen512(s, n);
	if (simd()) {
		/* bytes above 0xbf or below 0x80, as signed: above -65 */
		const __m128i lim = _mm_set1_epi8(-65), zero = _mm_setzero_si128();
		__m128i acc, v;
		size_t j;

		while (i + 16 <= n) {
			acc = zero;
			for (j = 0; j < 255 && i + 16 <= n; j++, i += 16) {
				v = _mm_loadu_si128((const __m128i *)(s + i));
				acc = _mm_sub_epi8(acc, _mm_cmpgt_epi8(v, lim));
			}
			acc = _mm_sad_epu8(acc, zero);
			k += (size_t)_mm_cvtsi128_si32(acc) +
			    (size_t)_mm_cvtsi128_si32(_mm_srli_si128(acc, 8));
		}
	}
#endif
	for (; i < n; i++)
		k += (s[i] & 0xc0) != 0x80;
	return k;
}

size_t
q_count_ellipses(const unsigned char *s, size_t n)
{
	size_t i = 0, k = 0, run;

	/* runs of k dots hold k / 3 of "..." as str.count finds them */
	while ((i += q_find2(s + i, n - i, '.', 0xe2)) < n) {
		if (s[i] == '.') {
			for (run = 0; i < n && s[i] == '.'; i++)
				run++;
			k += run / 3;
		} else if (n - i >= 3 && s[i + 1] == 0x80 && s[i + 2] == 0xa6) {
			k++;
			i += 3;
		} else
			i++;
	}
	return k;
}

size_t
q_find_break(const unsigned char *s, size_t n)
{
	size_t i = 0;

#ifdef __SSE2__
	if (simd()) {
		const __m128i lo = _mm_set1_epi8(0x1f);
		const __m128i c2 = _mm_set1_epi8((char)0xc2);
		const __m128i e2 = _mm_set1_epi8((char)0xe2);
		__m128i v, x;
		unsigned m;

		for (; i + 16 <= n; i += 16) {
			v = _mm_loadu_si128((const __m128i *)(s + i));
			x = _mm_cmpeq_epi8(_mm_min_epu8(v, lo), v);
			x = _mm_or_si128(x, _mm_or_si128(_mm_cmpeq_epi8(v, c2),
			    _mm_cmpeq_epi8(v, e2)));
			m = (unsigned)_mm_movemask_epi8(x);
			if (m != 0)
				return i + (size_t)__builtin_ctz(m);
		}
	}
#endif
	for (; i < n; i++)
		if (s[i] < 0x20 || s[i] == 0xc2 || s[i] == 0xe2)
			return i;
	return n;
}

/* Is s[0..k) needle[0..k) once bytes are ORed with 0x20? */
static inline int
folded_eq(const unsigned char *s, const char *needle, size_t k)
{
	size_t j;

	for (j = 0; j < k; j++)
		if ((s[j] | 0x20) != (unsigned char)needle[j])
			return 0;
	return 1;
}

#ifdef __SSE2__
/*
 * q_contains_folded's first places, 64 at a time (needle k >= 1 bytes):
 * where it stopped looking, and *found.
 */
AVX512 static size_t
folded512(const unsigned char *s, size_t n, const char *needle, size_t k,
    int *found)
{
	const __m512i f = _mm512_set1_epi8(needle[0]);
	const __m512i l = _mm512_set1_epi8(needle[k - 1]);
	const __m512i fold = _mm512_set1_epi8(0x20);
	uint64_t m;
	size_t i;

	for (i = 0; i + k - 1 + 64 <= n; i += 64) {
		m = _mm512_cmpeq_epi8_mask(_mm512_or_si512(_mm512_loadu_si512(
		    s + i), fold), f) & _mm512_cmpeq_epi8_mask(_mm512_or_si512(
		    _mm512_loadu_si512(s + i + k - 1), fold), l);
		for (; m != 0; m &= m - 1)
			if (folded_eq(s + i + (size_t)__builtin_ctzll(m),
			    needle, k)) {
				*found = 1;
				return i;
			}
	}
	return i;
}
#endif

int
q_contains_folded(const unsigned char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i = 0;
	unsigned char first, last;
#ifdef __SSE2__
	int found = 0;
#endif

	if (k == 0)
		return 1;
	if (k > n)
		return 0;
	first = (unsigned char)needle[0];
	last = (unsigned char)needle[k - 1];
#ifdef __SSE2__
	if (simd() >= Q_AVX512)
		i = folded512(s, n, needle, k, &found);
	if (found)
		return 1;
	if (simd()) {
		const __m128i f = _mm_set1_epi8((char)first);
		const __m128i l = _mm_set1_epi8((char)last);
		const __m128i fold = _mm_set1_epi8(0x20);
		__m128i a, b;
		unsigned m;

		/* the first and last bytes of 16 places at once */
		for (; i + k - 1 + 16 <= n; i += 16) {
			a = _mm_or_si128(_mm_loadu_si128((const __m128i *)
			    (s + i)), fold);
			b = _mm_or_si128(_mm_loadu_si128((const __m128i *)
			    (s + i + k - 1)), fold);
			m = (unsigned)_mm_movemask_epi8(_mm_and_si128(
			    _mm_cmpeq_epi8(a, f), _mm_cmpeq_epi8(b, l)));
			for (; m != 0; m &= m - 1)
				if (folded_eq(s + i + (size_t)__builtin_ctz(m),
				    needle, k))
					return 1;
		}
	}
#endif
	for (; i + k <= n; i++)
		if ((s[i] | 0x20) == first && (s[i + k - 1] | 0x20) == last &&
		    folded_eq(s + i, needle, k))
			return 1;
	return 0;
}

int
q_is_ascii(const unsigned char *s, size_t n)
{
	size_t i = 0;

#ifdef __SSE2__
	if (simd()) {
		__m128i acc = _mm_setzero_si128();

		for (; i + 16 <= n; i += 16)
			acc = _mm_or_si128(acc, _mm_loadu_si128((const __m128i *)
			    (s + i)));
		if (_mm_movemask_epi8(acc) != 0)
			return 0;
	}
#endif
	for (; i < n; i++)
		if (s[i] >= 0x80)
			return 0;
	return 1;
}

/* Python's ASCII white space: \t to \r, \x1c to space. */
static inline int
ascii_space(unsigned char c)
{
	return (unsigned char)(c - 0x09) < 5 || (unsigned char)(c - 0x1c) < 5;
}

int
q_run_over(const unsigned char *s, size_t n, size_t lim)
{
	size_t i = 0, run = 0;

	if (n <= lim)
		return 0;
#ifdef __SSE2__
	if (simd() && lim >= 16) {	/* then runs inside a block are short */
		const __m128i a = _mm_set1_epi8(0x09), b = _mm_set1_epi8(0x1c);
		const __m128i four = _mm_set1_epi8(4);
		__m128i v, x, y;
		unsigned m;

		for (; i + 16 <= n; i += 16) {
			v = _mm_loadu_si128((const __m128i *)(s + i));
			x = _mm_sub_epi8(v, a);
			y = _mm_sub_epi8(v, b);
			x = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(x, four), x),
			    _mm_cmpeq_epi8(_mm_min_epu8(y, four), y));
			m = (unsigned)_mm_movemask_epi8(x);
			if (m == 0) {
				if ((run += 16) > lim)
					return 1;
			} else if (run + (size_t)__builtin_ctz(m) > lim)
				return 1;
			else
				run = (size_t)__builtin_clz(m) - 16;
		}
	}
#endif
	for (; i < n; i++)
		if (ascii_space(s[i]))
			run = 0;
		else if (++run > lim)
			return 1;
	return 0;
}

/* A byte that splits pieces: space, \t to \r. */
static inline int
split_space(unsigned char c)
{
	return c == ' ' || (unsigned char)(c - 0x09) < 5;
}

/* A byte that is a character and not white space: ASCII but those. */
static inline int
ascii_mark(unsigned char c)
{
	return c < 0x80 && !ascii_space(c);
}

size_t
q_count_pieces(const unsigned char *s, size_t n)
{
	size_t i = 0, k = 0;
	int prev = 1;		/* the byte before is a split (or none) */

#ifdef __SSE2__
	if (simd()) {
		const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8(0x09);
		const __m128i fs = _mm_set1_epi8(0x1c), four = _mm_set1_epi8(4);
		__m128i v, x, y, z;
		unsigned split, mark, carry = 1;

		for (; i + 16 <= n; i += 16) {
			v = _mm_loadu_si128((const __m128i *)(s + i));
			x = _mm_sub_epi8(v, tab);
			x = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(x, four), x),
			    _mm_cmpeq_epi8(v, sp));
			y = _mm_sub_epi8(v, fs);
			y = _mm_cmpeq_epi8(_mm_min_epu8(y, four), y);
			/* not a split, \x1c to space or at or above 0x80 */
			z = _mm_or_si128(_mm_or_si128(x, y), v);
			split = (unsigned)_mm_movemask_epi8(x);
			mark = ~(unsigned)_mm_movemask_epi8(z) & 0xffff;
			k += (size_t)__builtin_popcount(mark & (split << 1 |
			    carry));
			carry = split >> 15;
		}
		prev = (int)carry;
	}
#endif
	for (; i < n; i++) {
		k += prev && ascii_mark(s[i]);
		prev = split_space(s[i]);
	}
	return k;
}
