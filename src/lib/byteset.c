/*
 * byteset.c - the first byte of a text that is in a set of bytes, 32
 * bytes a step with AVX2: a byte b is looked up by its low half in two
 * tables of 16, one for the b below 128 and one for the others, each
 * entry the bits of the high halves (b >> 4, and (b >> 4) - 8) whose byte
 * is in the set; the bit of b's own high half picks the answer.  Exact
 * for any set, so the byte loop gives the same offsets.
 */
#include <string.h>

#include "pskd.h"

void
pskd_byteset_init(struct pskd_byteset *b, const unsigned char in[256])
{
	int c;

	memset(b, 0, sizeof(*b));
	for (c = 0; c < 256; c++) {
		b->in[c] = in[c] != 0;
		if (!in[c])
			continue;
		if (c < 128)
			b->lo[c & 15] |= (unsigned char)(1u << (c >> 4));
		else
			b->hi[c & 15] |= (unsigned char)(1u << ((c >> 4) - 8));
	}
	b->avx2 = pskd_simd() >= PSKD_SIMD_AVX2;
}

static uint32_t
mask_bytes(const struct pskd_byteset *b, const unsigned char *s, size_t n)
{
	uint32_t m = 0;
	size_t j, end = n < 32 ? n : 32;

	for (j = 0; j < end; j++)
		m |= (uint32_t)b->in[s[j]] << j;
	return m;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_BYTESET_AVX2	1

__attribute__((target("avx2"))) static uint32_t
mask_avx2(const struct pskd_byteset *b, const unsigned char *s)
{
	const __m256i lo = _mm256_broadcastsi128_si256(_mm_loadu_si128(
	    (const __m128i *)(const void *)b->lo));
	const __m256i hi = _mm256_broadcastsi128_si256(_mm_loadu_si128(
	    (const __m128i *)(const void *)b->hi));
	/* The bit of a high half: 0..7 in the first table, 8..15 the
	   second (the same bits, the other table). */
	const __m256i bit = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128,
	    1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
	    1, 2, 4, 8, 16, 32, 64, -128);
	const __m256i nib = _mm256_set1_epi8(0x0f);
	__m256i v, l, h, t;

	v = _mm256_loadu_si256((const __m256i *)(const void *)s);
	l = _mm256_and_si256(v, nib);
	h = _mm256_and_si256(_mm256_srli_epi16(v, 4), nib);
	/* The table of b's half of the bytes: v's top bit chooses. */
	t = _mm256_blendv_epi8(_mm256_shuffle_epi8(lo, l),
	    _mm256_shuffle_epi8(hi, l), v);
	t = _mm256_and_si256(t, _mm256_shuffle_epi8(bit, h));
	return ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(t,
	    _mm256_setzero_si256()));
}
#endif

uint32_t
pskd_byteset_mask(const struct pskd_byteset *b, const unsigned char *s,
    size_t n)
{
#ifdef HAVE_BYTESET_AVX2
	if (b->avx2 && n >= 32)
		return mask_avx2(b, s);
#endif
	return mask_bytes(b, s, n);
}

size_t
pskd_byteset_find(const struct pskd_byteset *b, const unsigned char *s,
    size_t n)
{
	uint32_t m;
	size_t i;

#ifdef HAVE_BYTESET_AVX2
	if (b->avx2) {
		for (i = 0; i + 32 <= n; i += 32)
			if ((m = mask_avx2(b, s + i)) != 0)
				return i + (size_t)__builtin_ctz(m);
		for (; i < n && !b->in[s[i]]; i++)
			;
		return i;
	}
#endif
	for (i = 0; i < n && !b->in[s[i]]; i++)
		;
	return i;
}
