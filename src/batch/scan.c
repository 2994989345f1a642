/* scan.c - the first token of a value (see scan.h). */
#include "pskd.h"
#include "batch/scan.h"

#define BLOCK	64

/*
 * A block of 64 tokens is searched only when one of them is v: the loop
 * over a block has no early exit, so it compiles to vector compares.
 */
#define FIRST_EQ(name, type, get, attr)					\
attr static size_t							\
name(const unsigned char *p, size_t n, uint64_t v64)			\
{									\
	const type v = (type)v64;					\
	size_t k = 0, j;						\
	int hit;							\
									\
	for (; n - k >= BLOCK; k += BLOCK) {				\
		hit = 0;						\
		for (j = 0; j < BLOCK; j++)				\
			hit |= get(p + (k + j) * sizeof(type)) == v;	\
		if (hit)						\
			break;						\
	}								\
	for (; k < n; k++)						\
		if (get(p + k * sizeof(type)) == v)			\
			return k;					\
	return n;							\
}

static inline uint8_t
get_u8(const unsigned char *p)
{
	return p[0];
}

FIRST_EQ(find8, uint8_t, get_u8, )
FIRST_EQ(find16, uint16_t, pskd_get_le16, )
FIRST_EQ(find32, uint32_t, pskd_get_le32, )
FIRST_EQ(find64, uint64_t, pskd_get_le64, )
#if defined(__x86_64__)
#define AVX2 __attribute__((target("avx2")))
FIRST_EQ(find8_avx2, uint8_t, get_u8, AVX2)
FIRST_EQ(find16_avx2, uint16_t, pskd_get_le16, AVX2)
FIRST_EQ(find32_avx2, uint32_t, pskd_get_le32, AVX2)
FIRST_EQ(find64_avx2, uint64_t, pskd_get_le64, AVX2)
#endif

size_t
scan_find(const unsigned char *p, size_t n, unsigned w, uint64_t v)
{
#if defined(__x86_64__)
	static int avx2 = -1;

	if (avx2 == -1)
		avx2 = pskd_simd() >= PSKD_SIMD_AVX2;
	if (avx2 && n >= BLOCK)
		switch (w) {
		case 1: return find8_avx2(p, n, v);
		case 2: return find16_avx2(p, n, v);
		case 4: return find32_avx2(p, n, v);
		default: return find64_avx2(p, n, v);
		}
#endif
	switch (w) {
	case 1: return find8(p, n, v);
	case 2: return find16(p, n, v);
	case 4: return find32(p, n, v);
	default: return find64(p, n, v);
	}
}
