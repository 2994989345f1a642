/* minhash.c - MinHash signatures; the families are in pskd-minhash(1). */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "frame.h"
#include "minhash.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_X86	1
#endif

uint64_t
pskd_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint32_t
pskd_fmix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h;
}

uint64_t
pskd_fmix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

void
pskd_minhash_init(struct pskd_minhash *mh, uint32_t k, uint32_t family,
    uint64_t seed)
{
	uint64_t st = seed;
	uint32_t i;

	memset(mh, 0, sizeof(*mh));
	mh->k = k;
	mh->family = family;
	mh->seed = seed;
	mh->simd = pskd_simd() >= PSKD_SIMD_AVX512 ? 2 :
	    pskd_simd() >= PSKD_SIMD_AVX2 ? 1 : 0;
	mh->seeds = pskd_xreallocarray(NULL, k, sizeof(*mh->seeds));
	mh->seedmix = pskd_xreallocarray(NULL, k, sizeof(*mh->seedmix));
	for (i = 0; i < k; i++) {
		mh->seeds[i] = (uint32_t)pskd_splitmix64(&st);
		mh->seedmix[i] = mh->seeds[i] ^ mh->seeds[i] >> 16;
	}
	st = seed;
	mh->key = pskd_splitmix64(&st);
	mh->key2 = pskd_splitmix64(&st);
	mh->bins = pskd_xreallocarray(NULL, k, sizeof(*mh->bins));
}

void
pskd_minhash_free(struct pskd_minhash *mh)
{
	free(mh->seeds);
	free(mh->seedmix);
	free(mh->bins);
	free(mh->x32);
}

int
pskd_minhash_have_avx2(void)
{
#ifdef HAVE_X86
	if (pskd_simd_cpu() >= PSKD_SIMD_AVX512)
		return 2;
	return pskd_simd_cpu() >= PSKD_SIMD_AVX2 ? 1 : 0;
#else
	return 0;
#endif
}

/*
 * The vector paths split fmix32's first step, h ^ h >> 16, over the xor
 * with the seed: (x ^ s) ^ (x ^ s) >> 16 = (x ^ x >> 16) ^ (s ^ s >> 16).
 * The shingle's half is done once per shingle and the seed's once, which
 * leaves eight vector operations per 16 hashes instead of ten; the loop
 * is bound by their number, so that is a fifth less time.  The portable
 * path keeps the specification's form, so comparing the two checks this.
 */
static inline uint32_t
premix(uint32_t x)
{
	return x ^ x >> 16;
}

/* fmix32 after its first step. */
static inline uint32_t
fmix32_rest(uint32_t h)
{
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	return h ^ h >> 16;
}

#ifdef HAVE_X86
__attribute__((target("avx2"))) static inline __m256i
fmix32x8_rest(__m256i h)
{
	const __m256i c1 = _mm256_set1_epi32((int)0x85ebca6bU);
	const __m256i c2 = _mm256_set1_epi32((int)0xc2b2ae35U);

	h = _mm256_mullo_epi32(h, c1);
	h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 13));
	h = _mm256_mullo_epi32(h, c2);
	return _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));
}

/*
 * 16 components at a time, the shingles in the inner loop: all in
 * registers.  xm holds premix(x32), sm premix(seed); the minima carry on
 * from those already in sig.
 */
__attribute__((target("avx2"))) static uint32_t
classic_avx2(const uint32_t *sm, uint32_t i, uint32_t k, const uint32_t *xm,
    size_t n, uint32_t *sig)
{
	size_t j;

	for (; i + 16 <= k; i += 16) {
		__m256i s0 = _mm256_loadu_si256((const __m256i *)(sm + i));
		__m256i s1 = _mm256_loadu_si256((const __m256i *)(sm + i + 8));
		__m256i m0 = _mm256_loadu_si256((const __m256i *)(sig + i));
		__m256i m1 = _mm256_loadu_si256((const __m256i *)(sig + i + 8));

		for (j = 0; j < n; j++) {
			__m256i v = _mm256_set1_epi32((int)xm[j]);

			m0 = _mm256_min_epu32(m0,
			    fmix32x8_rest(_mm256_xor_si256(v, s0)));
			m1 = _mm256_min_epu32(m1,
			    fmix32x8_rest(_mm256_xor_si256(v, s1)));
		}
		_mm256_storeu_si256((__m256i *)(sig + i), m0);
		_mm256_storeu_si256((__m256i *)(sig + i + 8), m1);
	}
	return i;
}

__attribute__((target("avx512f"))) static inline __m512i
fmix32x16_rest(__m512i h)
{
	const __m512i c1 = _mm512_set1_epi32((int)0x85ebca6bU);
	const __m512i c2 = _mm512_set1_epi32((int)0xc2b2ae35U);

	h = _mm512_mullo_epi32(h, c1);
	h = _mm512_xor_si512(h, _mm512_srli_epi32(h, 13));
	h = _mm512_mullo_epi32(h, c2);
	return _mm512_xor_si512(h, _mm512_srli_epi32(h, 16));
}

/* The same, 32 components at a time. */
__attribute__((target("avx512f"))) static uint32_t
classic_avx512(const uint32_t *sm, uint32_t k, const uint32_t *xm, size_t n,
    uint32_t *sig)
{
	uint32_t i;
	size_t j;

	for (i = 0; i + 32 <= k; i += 32) {
		__m512i s0 = _mm512_loadu_si512(sm + i);
		__m512i s1 = _mm512_loadu_si512(sm + i + 16);
		__m512i m0 = _mm512_loadu_si512(sig + i);
		__m512i m1 = _mm512_loadu_si512(sig + i + 16);

		/* xm[j] is broadcast from memory: a register broadcast
		 * would cost a vector operation of its own. */
		for (j = 0; j < n; j++) {
			__m512i v = _mm512_set1_epi32((int)xm[j]);

			m0 = _mm512_min_epu32(m0,
			    fmix32x16_rest(_mm512_xor_si512(v, s0)));
			m1 = _mm512_min_epu32(m1,
			    fmix32x16_rest(_mm512_xor_si512(v, s1)));
		}
		_mm512_storeu_si512(sig + i, m0);
		_mm512_storeu_si512(sig + i + 16, m1);
	}
	return i;
}
#endif

/*
 * Lower sig's k minima by the pre-mixed shingles xm: the vector paths,
 * then the components they leave, one at a time.
 */
static void
classic_mixed(const struct pskd_minhash *mh, const uint32_t *xm, size_t n,
    uint32_t *sig)
{
	uint32_t i = 0, m, v, s;
	size_t j;

#ifdef HAVE_X86
	if (mh->simd >= 2 && pskd_simd_cpu() >= PSKD_SIMD_AVX512)
		i = classic_avx512(mh->seedmix, mh->k, xm, n, sig);
	if (mh->simd >= 1 && pskd_minhash_have_avx2())
		i = classic_avx2(mh->seedmix, i, mh->k, xm, n, sig);
#endif
	for (; i < mh->k; i++) {
		s = mh->seedmix[i];
		m = sig[i];
		for (j = 0; j < n; j++) {
			v = fmix32_rest(xm[j] ^ s);
			m = v < m ? v : m;
		}
		sig[i] = m;
	}
}

/* The specification's form, for --portable. */
static void
classic_portable(const struct pskd_minhash *mh, const uint32_t *x32, size_t n,
    uint32_t *sig)
{
	uint32_t i, m, v, s;
	size_t j;

	for (i = 0; i < mh->k; i++) {
		s = mh->seeds[i];
		m = UINT32_MAX;
		for (j = 0; j < n; j++) {
			v = pskd_fmix32(x32[j] ^ s);
			if (v < m)
				m = v;
		}
		sig[i] = m;
	}
}

void
pskd_minhash_classic(const struct pskd_minhash *mh, const uint32_t *x32,
    size_t n, uint32_t *sig)
{
	uint32_t xm[512];
	size_t j, t, len;

	if (mh->simd == 0) {
		classic_portable(mh, x32, n, sig);
		return;
	}
	/* In slices on the stack: this call allocates nothing. */
	memset(sig, 0xff, mh->k * sizeof(*sig));
	for (t = 0; t < n; t += len) {
		len = n - t < 512 ? n - t : 512;
		for (j = 0; j < len; j++)
			xm[j] = premix(x32[t + j]);
		classic_mixed(mh, xm, len, sig);
	}
}

/* The bin of a 64-bit hash among k: the high 32 bits scaled to [0, k). */
static inline uint32_t
bin_of(uint64_t h, uint32_t k)
{
	return (uint32_t)(((h >> 32) * k) >> 32);
}

/*
 * A bin holds its least 32-bit value widened to 64 bits, so 2^32 can mean
 * empty and no flag array is needed.
 */
#define OPH_EMPTY	((uint64_t)1 << 32)

static void
oph_start(const struct pskd_minhash *mh)
{
	uint32_t i;

	for (i = 0; i < mh->k; i++)
		mh->bins[i] = OPH_EMPTY;
}

/*
 * Lower the bin's minimum without a branch: whether a shingle is its bin's
 * new minimum is a coin toss the predictor cannot learn, and mispredicting
 * it cost more than the hashing.
 */
static inline void
oph_add(uint64_t *bins, uint64_t key, uint32_t k, uint64_t x)
{
	uint64_t h = pskd_fmix64(x ^ key), v = (uint32_t)h, *m;

	m = bins + bin_of(h, k);
	*m = v < *m ? v : *m;
}

/*
 * Optimal densification: an empty bin copies the first filled bin its
 * probe sequence h(i, 1), h(i, 2), ... reaches.  The set is not empty, so
 * some bin is filled and the probing ends.
 */
static void
oph_finish(const struct pskd_minhash *mh, uint32_t *sig)
{
	uint32_t k = mh->k, i, a, j;

	for (i = 0; i < k; i++) {
		j = i;
		for (a = 1; mh->bins[j] == OPH_EMPTY; a++)
			j = bin_of(pskd_fmix64(mh->key2 ^ ((uint64_t)i << 32 |
			    a)), k);
		sig[i] = (uint32_t)mh->bins[j];
	}
}

void
pskd_minhash_oph(const struct pskd_minhash *mh, const uint64_t *x, size_t n,
    uint32_t *sig)
{
	size_t t;

	oph_start(mh);
	for (t = 0; t < n; t++)
		oph_add(mh->bins, mh->key, mh->k, x[t]);
	if (n > 0)
		oph_finish(mh, sig);
	else
		memset(sig, 0xff, mh->k * sizeof(*sig));
}

#ifdef HAVE_X86
#define X86_SCAN	__attribute__((target("avx512f,avx512dq")))

/* 1 if the AVX-512 loops over the frame's values may run. */
static int
scan_avx512(const struct pskd_minhash *mh)
{
	return mh->simd >= 2 && pskd_simd_cpu() >= PSKD_SIMD_AVX512;
}

/*
 * Lanes of x not greater than the value before them, *last holding the
 * vector before x; the first vector of a set has no lane 0 to check.
 */
X86_SCAN static inline __mmask8
disorder8(__m512i x, __m512i *last, size_t t)
{
	__m512i before = _mm512_alignr_epi64(x, *last, 7);

	*last = x;
	return _mm512_mask_cmple_epu64_mask(t == 0 ? 0xfe : 0xff, x, before);
}

X86_SCAN static inline __m512i
fmix64x8(__m512i h)
{
	const __m512i c1 = _mm512_set1_epi64((long long)0xff51afd7ed558ccdULL);
	const __m512i c2 = _mm512_set1_epi64((long long)0xc4ceb9fe1a85ec53ULL);

	h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 33));
	h = _mm512_mullo_epi64(h, c1);
	h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 33));
	h = _mm512_mullo_epi64(h, c2);
	return _mm512_xor_si512(h, _mm512_srli_epi64(h, 33));
}

/*
 * The classic family's folding and premix(), eight values at a time;
 * returns how many it took.
 */
X86_SCAN static size_t
fold_avx512(const unsigned char *p, size_t n, uint32_t *xm, int *bad)
{
	__m512i x, last = _mm512_setzero_si512();
	__m256i f;
	__mmask8 dis = 0;
	size_t t;

	for (t = 0; t + 8 <= n; t += 8) {
		x = _mm512_loadu_si512(p + 8 * t);
		dis |= disorder8(x, &last, t);
		f = _mm512_cvtepi64_epi32(_mm512_xor_si512(x,
		    _mm512_srli_epi64(x, 32)));
		_mm256_storeu_si256((__m256i *)(xm + t),
		    _mm256_xor_si256(f, _mm256_srli_epi32(f, 16)));
	}
	*bad |= dis != 0;
	return t;
}

/*
 * fold_avx512() for AVX2, from the second value on (the first has none
 * before it to be checked against): eight values at a time, each
 * compared with the one before it, loaded again from one value back, as
 * signed numbers with their top bits flipped (AVX2 has no unsigned
 * 64-bit compare).  Returns where it stopped.
 */
__attribute__((target("avx2"))) static size_t
fold_avx2(const unsigned char *p, size_t n, uint32_t *xm, int *bad)
{
	const __m256i top = _mm256_set1_epi64x((long long)0x8000000000000000ULL);
	__m256i a, b, pa, pb, dis = _mm256_setzero_si256(), f;
	size_t t;

	for (t = 1; t + 8 <= n; t += 8) {
		a = _mm256_loadu_si256((const __m256i *)(const void *)
		    (p + 8 * t));
		b = _mm256_loadu_si256((const __m256i *)(const void *)
		    (p + 8 * t + 32));
		pa = _mm256_loadu_si256((const __m256i *)(const void *)
		    (p + 8 * t - 8));
		pb = _mm256_loadu_si256((const __m256i *)(const void *)
		    (p + 8 * t + 24));
		dis = _mm256_or_si256(dis, _mm256_cmpgt_epi64(
		    _mm256_xor_si256(pa, top), _mm256_xor_si256(a, top)));
		dis = _mm256_or_si256(dis, _mm256_cmpgt_epi64(
		    _mm256_xor_si256(pb, top), _mm256_xor_si256(b, top)));
		dis = _mm256_or_si256(dis, _mm256_cmpeq_epi64(pa, a));
		dis = _mm256_or_si256(dis, _mm256_cmpeq_epi64(pb, b));
		a = _mm256_xor_si256(a, _mm256_srli_epi64(a, 32));
		b = _mm256_xor_si256(b, _mm256_srli_epi64(b, 32));
		/* The low halves: a0 a1 b0 b1 | a2 a3 b2 b3, then in order. */
		f = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a),
		    _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0)));
		f = _mm256_permute4x64_epi64(f, _MM_SHUFFLE(3, 1, 2, 0));
		_mm256_storeu_si256((__m256i *)(void *)(xm + t),
		    _mm256_xor_si256(f, _mm256_srli_epi32(f, 16)));
	}
	*bad |= !_mm256_testz_si256(dis, dis);
	return t;
}

/*
 * OPH's hashing, eight values at a time, a block into bin numbers and
 * values on the stack, then the bins lowered one by one (a vector scatter
 * would have to resolve the lanes that share a bin first).  Returns how
 * many values it took.
 */
X86_SCAN static size_t
oph_avx512(const struct pskd_minhash *mh, const unsigned char *p, size_t n,
    int *bad)
{
	uint32_t bin[256], val[256];
	const __m512i key = _mm512_set1_epi64((long long)mh->key);
	const __m512i k = _mm512_set1_epi64(mh->k);
	__m512i x, h, last = _mm512_setzero_si512();
	__mmask8 dis = 0;
	uint64_t *m;
	size_t t, i, len;

	for (t = 0; t + 8 <= n; t += len) {
		len = (n - t) & ~(size_t)7;
		if (len > 256)
			len = 256;
		for (i = 0; i < len; i += 8) {
			x = _mm512_loadu_si512(p + 8 * (t + i));
			dis |= disorder8(x, &last, t + i);
			h = fmix64x8(_mm512_xor_si512(x, key));
			_mm256_storeu_si256((__m256i *)(val + i),
			    _mm512_cvtepi64_epi32(h));
			h = _mm512_srli_epi64(_mm512_mul_epu32(
			    _mm512_srli_epi64(h, 32), k), 32);
			_mm256_storeu_si256((__m256i *)(bin + i),
			    _mm512_cvtepi64_epi32(h));
		}
		for (i = 0; i < len; i++) {
			m = mh->bins + bin[i];
			*m = val[i] < *m ? val[i] : *m;
		}
	}
	*bad |= dis != 0;
	return t;
}
#endif

int
pskd_minhash_sign(struct pskd_minhash *mh, const unsigned char *p, size_t n,
    uint32_t *sig)
{
	uint64_t x, prev;
	size_t t = 0;
	int bad = 0, simd = 0, avx2 = 0;

	if (n == 0) {
		memset(sig, 0xff, mh->k * sizeof(*sig));
		return 0;
	}
#ifdef HAVE_X86
	simd = scan_avx512(mh);
	avx2 = !simd && mh->simd >= 1 && pskd_minhash_have_avx2();
#endif
	/* The order check rides along: these loops read every value anyway. */
	if (mh->family == PSKD_FAMILY_OPH) {
		oph_start(mh);
#ifdef HAVE_X86
		if (simd)
			t = oph_avx512(mh, p, n, &bad);
#endif
		prev = t > 0 ? pskd_get_le64(p + 8 * (t - 1)) : 0;
		for (; t < n; t++, prev = x) {
			x = pskd_get_le64(p + 8 * t);
			bad |= t > 0 && x <= prev;
			oph_add(mh->bins, mh->key, mh->k, x);
		}
		if (bad)
			return -1;
		oph_finish(mh, sig);
		return 0;
	}
	if (n > mh->x32cap) {
		mh->x32cap = n + n / 2;
		mh->x32 = pskd_xreallocarray(mh->x32, mh->x32cap,
		    sizeof(*mh->x32));
	}
#ifdef HAVE_X86
	if (simd || avx2) {
		if (simd)
			t = fold_avx512(p, n, mh->x32, &bad);
		else if (n > 8) {
			x = pskd_get_le64(p);
			mh->x32[0] = premix((uint32_t)x ^ (uint32_t)(x >> 32));
			t = fold_avx2(p, n, mh->x32, &bad);
		}
		prev = t > 0 ? pskd_get_le64(p + 8 * (t - 1)) : 0;
		for (; t < n; t++, prev = x) {
			x = pskd_get_le64(p + 8 * t);
			bad |= t > 0 && x <= prev;
			mh->x32[t] = premix((uint32_t)x ^ (uint32_t)(x >> 32));
		}
		if (bad)
			return -1;
		memset(sig, 0xff, mh->k * sizeof(*sig));
		classic_mixed(mh, mh->x32, n, sig);
		return 0;
	}
#endif
	for (t = 0, prev = 0; t < n; t++, prev = x) {
		x = pskd_get_le64(p + 8 * t);
		bad |= t > 0 && x <= prev;
		mh->x32[t] = (uint32_t)x ^ (uint32_t)(x >> 32);
	}
	if (bad)
		return -1;
	pskd_minhash_classic(mh, mh->x32, n, sig);
	return 0;
}
