/*
 * shingle.c - the shingles of pskd-shingle: a document's text normalised
 * (normalize.c), its word or character n-grams hashed with XXH3-64, the
 * hashes sorted and their repeats dropped.
 */
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "shingle.h"

#define BLOCK	4096		/* n-grams dealt and hashed at a time */

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

static void
sort_u64(uint64_t *a, size_t n)
{
	uint64_t p, t;
	size_t i, j;

	while (n > 16) {
		/* Median of three, then Hoare partition; recurse on the smaller. */
		uint64_t x = a[0], y = a[n / 2], z = a[n - 1];

		p = x < y ? (y < z ? y : (x < z ? z : x)) :
		    (x < z ? x : (y < z ? z : y));
		i = 0;
		j = n - 1;
		for (;;) {
			while (a[i] < p)
				i++;
			while (a[j] > p)
				j--;
			if (i >= j)
				break;
			t = a[i], a[i] = a[j], a[j] = t;
			i++, j--;
		}
		if (j + 1 < n - j - 1) {
			sort_u64(a, j + 1);
			a += j + 1, n -= j + 1;
		} else {
			sort_u64(a + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++) {
		t = a[i];
		for (j = i; j > 0 && a[j - 1] > t; j--)
			a[j] = a[j - 1];
		a[j] = t;
	}
}

static inline uint64_t
at(const unsigned char *d, size_t i)
{
	return pskd_get_le64(d + 8 * i);
}

static inline void
put(unsigned char *d, size_t i, uint64_t v)
{
	pskd_put_le64(d + 8 * i, v);
}

/*
 * The distinct values of the sorted a[0..n) to d, little-endian; returns
 * how many.
 */
static size_t
unique(const uint64_t *a, size_t n, unsigned char *d)
{
	size_t i, j;
	uint64_t last;

	if (n == 0)
		return 0;
	put(d, 0, last = a[0]);
	for (i = 1, j = 1; i < n; i++)
		if (a[i] != last)
			put(d, j++, last = a[i]);
	return j;
}

/*
 * Sort the hashes a[0..n) and write the distinct ones to d, ascending,
 * little-endian (the values of the frame, in the writer's buffer); returns
 * how many.  cnt[0] and cnt[1] count bits 48..55 and 56..63 of the hashes
 * (the hashing loop keeps them).  Hashes are uniform: two counting passes
 * on those 16 bits, lower byte first, leave only the few pairs that share
 * them out of order, and the last pass, to d, puts each such hash in its
 * place as it drops repeats.  The first pass goes to d itself, which has
 * room for n: no temporary of 8 bytes a shingle.  That beats one pass on more bits, whose
 * counts must be cleared and summed for every document, and which leaves
 * more neighbours out of order, each a mispredicted branch.  A skewed
 * input (the fix-ups moving more than 8n hashes) goes to the quicksort.
 */
static size_t
sort_unique(uint64_t *a, size_t n, uint32_t cnt[2][256], unsigned char *d)
{
	uint32_t s0, s1, x;
	size_t i, j, k, moves;
	uint64_t t, last;

	if (n < 64) {
		sort_u64(a, n);
		return unique(a, n, d);
	}
	for (i = 0, s0 = s1 = 0; i < 256; i++) {
		x = cnt[0][i], cnt[0][i] = s0, s0 += x;
		x = cnt[1][i], cnt[1][i] = s1, s1 += x;
	}
	for (i = 0; i < n; i++)
		put(d, cnt[0][a[i] >> 48 & 255]++, a[i]);
	for (i = 0; i < n; i++) {
		t = at(d, i);
		a[cnt[1][t >> 56]++] = t;
	}
	put(d, 0, last = a[0]);
	for (i = 1, j = 1, moves = 0; i < n; i++) {
		t = a[i];
		if (t > last) {
			put(d, j++, last = t);
			continue;
		}
		if (t == last)
			continue;
		/* Its place among the j sorted ones, unless it is there. */
		for (k = j - 1; k > 0 && at(d, k - 1) > t; k--)
			;
		if (k > 0 && at(d, k - 1) == t)
			continue;
		moves += j - k;
		if (moves > 8 * n) {
			/* a[0..i) is spent: the j sorted ones go back there. */
			for (k = 0; k < j; k++)
				a[k] = at(d, k);
			memmove(a + j, a + i, (n - i) * sizeof(*a));
			sort_u64(a, j + n - i);
			return unique(a, j + n - i, d);
		}
		memmove(d + 8 * (k + 1), d + 8 * k, 8 * (j - k));
		put(d, k, t);
		j++;
	}
	return j;
}

#ifdef __SIZEOF_INT128__
/*
 * XXH3-64 with the seed 0, as XXH3_64bits_withSeed() computes it, for the
 * 17..32- and 33..64-byte n-grams that most word 5-grams are: the same
 * arithmetic as the library's 17..128-byte path, with the first 64 bytes
 * of its default secret as constants, and without its length branches,
 * which mispredict on n-grams of random length.  tests/t/shingle-hash
 * checks every length against the xxhash module.
 */
static const uint64_t ksecret[8] = {
	0xbe4ba423396cfeb8ULL, 0x1cad21f72c81017cULL, 0xdb979083e96dd4deULL,
	0x1f67b3b7a4a44072ULL, 0x78e5c0cc4ee679cbULL, 0x2172ffcc7dd05a82ULL,
	0x8e2443f7744608b8ULL, 0x4c263a81e69035e0ULL
};
#define PRIME64_1	0x9E3779B185EBCA87ULL

static inline uint64_t
mix16(const unsigned char *p, unsigned k)
{
	__uint128_t m = (__uint128_t)(pskd_get_le64(p) ^ ksecret[k]) *
	    (pskd_get_le64(p + 8) ^ ksecret[k + 1]);

	return (uint64_t)m ^ (uint64_t)(m >> 64);
}

static inline uint64_t
avalanche(uint64_t h)
{
	h ^= h >> 37;
	h *= 0x165667919E3779F9ULL;
	return h ^ h >> 32;
}

static inline uint64_t
hash17to32(const unsigned char *p, size_t len)
{
	return avalanche(len * PRIME64_1 + mix16(p, 0) +
	    mix16(p + len - 16, 2));
}

static inline uint64_t
hash33to64(const unsigned char *p, size_t len)
{
	return avalanche(len * PRIME64_1 + mix16(p, 0) +
	    mix16(p + len - 16, 2) + mix16(p + 16, 4) + mix16(p + len - 32, 6));
}
#define HASH_17TO32	1
#define HASH_33TO64	1
#else
/* Without 128-bit products, the library for all lengths. */
#define HASH_17TO32	0
#define HASH_33TO64	0
#define hash17to32(p, len)	XXH3_64bits_withSeed((p), (len), PSKD_SHINGLE_SEED)
#define hash33to64(p, len)	XXH3_64bits_withSeed((p), (len), PSKD_SHINGLE_SEED)
#endif

#if defined(__x86_64__) && defined(__GNUC__) && HASH_17TO32
#define HAVE_DEAL512	1

/*
 * The lengths of the eight word n-grams from sv[0] on (w words each) and,
 * in *a, their starts: one past the separator before each.
 */
__attribute__((target("avx2"))) static inline __m256i
spans8(const uint32_t *sv, size_t w, __m256i *a)
{
	*a = _mm256_add_epi32(_mm256_loadu_si256((const void *)(sv - 1)),
	    _mm256_set1_epi32(1));
	return _mm256_sub_epi32(_mm256_loadu_si256((const void *)
	    (sv + w - 1)), *a);
}

/*
 * The dealing loop of shingles() for word n-grams, eight at a time: the
 * n-grams' starts and lengths from two loads of the separators, and each
 * class's share packed to the front of a vector (a compress) and stored
 * whole; the stores past a class's count fall in its own room, which is
 * nh long, and are overwritten or never read.  Returns how many n-grams
 * it dealt, a multiple of 8; *n1 and *n2 count the second and third class.
 */
__attribute__((target("avx512f,avx512vl,popcnt"))) static size_t
deal512(const uint32_t *sv, size_t nh, size_t w, uint64_t *c0, uint64_t *c1,
    uint64_t *c2, size_t *n1, size_t *n2)
{
	const __m256i m17 = _mm256_set1_epi32(17), m33 = _mm256_set1_epi32(33);
	const __m256i k16 = _mm256_set1_epi32(16), k32 = _mm256_set1_epi32(32);
	__m256i a, len;
	__m512i x;
	__mmask8 s1, s2, s0;
	size_t i, j0 = 0, j1 = 0, j2 = 0;

	for (i = 0; i + 8 <= nh; i += 8) {
		len = spans8(sv + i, w, &a);
		x = _mm512_or_si512(_mm512_slli_epi64(_mm512_cvtepu32_epi64(a),
		    32), _mm512_cvtepu32_epi64(len));
		s1 = _mm256_cmplt_epu32_mask(_mm256_sub_epi32(len, m17), k16);
		s2 = _mm256_cmplt_epu32_mask(_mm256_sub_epi32(len, m33), k32);
		s0 = (__mmask8)~(s1 | s2);
		_mm512_storeu_si512(c0 + j0, _mm512_maskz_compress_epi64(s0, x));
		_mm512_storeu_si512(c1 + j1, _mm512_maskz_compress_epi64(s1, x));
		_mm512_storeu_si512(c2 + j2, _mm512_maskz_compress_epi64(s2, x));
		j0 += (size_t)__builtin_popcount(s0);
		j1 += (size_t)__builtin_popcount(s1);
		j2 += (size_t)__builtin_popcount(s2);
	}
	*n1 = j1;
	*n2 = j2;
	return i;
}

/*
 * The vpermd indices that pack the 64-bit lanes of a mask of 4 to the
 * front: lane e's two halves 2e, 2e + 1.
 */
static const uint32_t pack4[16][8] = {
	{ 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 0, 0, 0, 0, 0, 0 },
	{ 2, 3, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 2, 3, 0, 0, 0, 0 },
	{ 4, 5, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 4, 5, 0, 0, 0, 0 },
	{ 2, 3, 4, 5, 0, 0, 0, 0 },
	{ 0, 1, 2, 3, 4, 5, 0, 0 },
	{ 6, 7, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 6, 7, 0, 0, 0, 0 },
	{ 2, 3, 6, 7, 0, 0, 0, 0 },
	{ 0, 1, 2, 3, 6, 7, 0, 0 },
	{ 4, 5, 6, 7, 0, 0, 0, 0 },
	{ 0, 1, 4, 5, 6, 7, 0, 0 },
	{ 2, 3, 4, 5, 6, 7, 0, 0 },
	{ 0, 1, 2, 3, 4, 5, 6, 7 }
};

/* The lanes of x in mask m packed and stored at c + *j. */
__attribute__((target("avx2,popcnt"))) static inline void
pack_store(uint64_t *c, size_t *j, __m256i x, unsigned m)
{
	_mm256_storeu_si256((__m256i *)(void *)(c + *j),
	    _mm256_permutevar8x32_epi32(x, _mm256_loadu_si256(
	    (const __m256i *)(const void *)pack4[m])));
	*j += (size_t)__builtin_popcount(m);
}

/*
 * deal512() for AVX2: the same classes, with a table of vpermd indices
 * for the packing.  The 32-bit starts and lengths interleave as 64-bit
 * lanes within each 128-bit half, so the n-grams 0, 1, 4, 5 of eight go
 * in one vector and 2, 3, 6, 7 in the other: the order within a class
 * does not matter, the hashes being sorted.
 */
__attribute__((target("avx2,popcnt"))) static size_t
deal256(const uint32_t *sv, size_t nh, size_t w, uint64_t *c0, uint64_t *c1,
    uint64_t *c2, size_t *n1, size_t *n2)
{
	const __m256i m17 = _mm256_set1_epi32(17), m33 = _mm256_set1_epi32(33);
	const __m256i k15 = _mm256_set1_epi32(15), k31 = _mm256_set1_epi32(31);
	__m256i a, len, t, s1, s2, xl, xh;
	unsigned l1, h1, l2, h2;
	size_t i, j0 = 0, j1 = 0, j2 = 0;

	for (i = 0; i + 8 <= nh; i += 8) {
		len = spans8(sv + i, w, &a);
		t = _mm256_sub_epi32(len, m17);
		s1 = _mm256_cmpeq_epi32(_mm256_min_epu32(t, k15), t);
		t = _mm256_sub_epi32(len, m33);
		s2 = _mm256_cmpeq_epi32(_mm256_min_epu32(t, k31), t);
		xl = _mm256_unpacklo_epi32(len, a);
		xh = _mm256_unpackhi_epi32(len, a);
		l1 = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(
		    _mm256_unpacklo_epi32(s1, s1)));
		h1 = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(
		    _mm256_unpackhi_epi32(s1, s1)));
		l2 = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(
		    _mm256_unpacklo_epi32(s2, s2)));
		h2 = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(
		    _mm256_unpackhi_epi32(s2, s2)));
		pack_store(c0, &j0, xl, ~(l1 | l2) & 15);
		pack_store(c0, &j0, xh, ~(h1 | h2) & 15);
		pack_store(c1, &j1, xl, l1);
		pack_store(c1, &j1, xh, h1);
		pack_store(c2, &j2, xl, l2);
		pack_store(c2, &j2, xh, h2);
	}
	*n1 = j1;
	*n2 = j2;
	return i;
}
#endif

static uint64_t *
need_hv(struct pskd_shingler *sh, size_t n)
{
	if (n > sh->hvcap) {
		sh->hvcap = n + n / 2;
		sh->hv = pskd_xreallocarray(sh->hv, sh->hvcap,
		    sizeof(*sh->hv));
	}
	return sh->hv;
}

/* Keep a hash, counting its top two bytes for the sort. */
#define KEEP(h) do {							\
	uint64_t h_ = (h);						\
									\
	hv[k++] = h_;							\
	cnt[0][h_ >> 48 & 255]++;					\
	cnt[1][h_ >> 56]++;						\
} while (0)

/*
 * Hash the n-grams of the normalised text s[0..len) into hv, counting the
 * top bytes of the hashes into cnt for sort_unique(); returns how many.
 * For words, seps holds the offsets of the spaces between them between
 * two sentinels, -1 and len: word k starts one past sv[k - 1] and ends at
 * sv[k], and n-grams are hashed straight from them; for characters, the
 * starts of the code points a block needs are found as it comes (pos).
 * BLOCK n-grams at a time, as start << 32 | length, are first dealt into
 * three length classes (a store into each, the right count moving; no
 * branch), so that each class is hashed by a loop without length
 * branches, and what that takes stays the same whatever the text's
 * length.  The top bytes are counted while the hash waits on its
 * multiplies.
 */
static size_t
shingles(struct pskd_shingler *sh, const unsigned char *s, size_t len,
    uint32_t cnt[2][256])
{
	const uint32_t *sv = (const uint32_t *)(void *)sh->seps.p + 1;
	size_t nb, i, j, m, nh, w = sh->n, a, b, k, n1, n2, q = 0, have = 0;
	size_t *pos = sh->pos;
	int words = sh->unit == PSKD_UNIT_WORDS;
	int huge = !words && len > UINT32_MAX;
	uint64_t *c0 = sh->spans, *c1 = c0 + BLOCK, *c2 = c1 + BLOCK, x, *hv;

	if (len == 0)
		return 0;
	nb = sh->nb;
	nh = nb >= w ? nb - w + 1 : 1;
	hv = need_hv(sh, nh);
	if (nb < w)
		w = nb;
	memset(cnt, 0, 2 * 256 * sizeof(cnt[0][0]));
	k = 0;
	for (i = 0; i < nh; i += m) {
		m = nh - i < BLOCK ? nh - i : BLOCK;
		/*
		 * The starts of code points i .. i + m + w - 1, the one past
		 * the last being len: the normalised text is well-formed
		 * UTF-8 (pskd_norm_text() writes it), so every byte but a
		 * continuation byte starts one.
		 */
		while (!words && have < m + w) {
			pos[have++] = q;
			for (q += q < len; q < len && (s[q] & 0xc0) == 0x80; q++)
				;
		}
		j = n1 = n2 = 0;
#ifdef HAVE_DEAL512
		if (words && sh->avx512)
			j = deal512(sv + i, m, w, c0, c1, c2, &n1, &n2);
		else if (words && sh->avx2)
			j = deal256(sv + i, m, w, c0, c1, c2, &n1, &n2);
#endif
		/* -c keeps size_t offsets: past 2^32, hash in order (huge). */
		for (; j < m && huge; j++)
			KEEP(XXH3_64bits_withSeed(s + pos[j], pos[j + w] - pos[j],
			    PSKD_SHINGLE_SEED));
		for (; j < m; j++) {
			if (words)
				a = (uint32_t)(sv[i + j - 1] + 1),
				    b = sv[i + j + w - 1];
			else
				a = pos[j], b = pos[j + w];
			x = (uint64_t)a << 32 | (b - a);
			c0[j - n1 - n2] = x;
			c1[n1] = x;
			c2[n2] = x;
			n1 += HASH_17TO32 && b - a - 17 < 16;
			n2 += HASH_33TO64 && b - a - 33 < 32;
		}
		for (j = 0; j < m - n1 - n2 && !huge; j++) {
			a = c0[j] >> 32;
			b = a + (uint32_t)c0[j];
			KEEP(XXH3_64bits_withSeed(s + a, b - a,
			    PSKD_SHINGLE_SEED));
		}
		for (j = 0; j < n1; j++)
			KEEP(hash17to32(s + (c1[j] >> 32), (uint32_t)c1[j]));
		for (j = 0; j < n2; j++)
			KEEP(hash33to64(s + (c2[j] >> 32), (uint32_t)c2[j]));
		if (!words) {
			memmove(pos, pos + m, (have - m) * sizeof(*pos));
			have -= m;
		}
	}
	return nh;
}

void
pskd_shingler_init(struct pskd_shingler *sh, uint32_t unit, uint32_t n,
    unsigned norm)
{
	memset(sh, 0, sizeof(*sh));
	sh->unit = unit;
	sh->n = n;
	pskd_norm_init(&sh->nm, norm);
	sh->spans = pskd_xreallocarray(NULL, 3 * BLOCK, sizeof(*sh->spans));
	if (unit == PSKD_UNIT_CHARS)
		sh->pos = pskd_xreallocarray(NULL, BLOCK + (size_t)n + 1,
		    sizeof(*sh->pos));
#ifdef HAVE_DEAL512
	sh->avx512 = pskd_simd() >= PSKD_SIMD_AVX512;
	sh->avx2 = pskd_simd() >= PSKD_SIMD_AVX2;
#endif
}

/* Bytes a document takes: its normalised text, separators, shingles. */
static size_t
need(const struct pskd_shingler *sh, size_t nh)
{
	return sh->ntext.len + sh->seps.len + 16 * nh;
}

size_t
pskd_shingler_hash(struct pskd_shingler *sh, const unsigned char *text,
    size_t len)
{
	uint32_t minus1 = UINT32_MAX, end;
	int words = sh->unit == PSKD_UNIT_WORDS;
	size_t i, nh;

	/* The spaces between words between the sentinels -1 and len. */
	sh->ntext.len = 0;
	sh->seps.len = 0;
	pskd_buf_add(&sh->seps, &minus1, sizeof(minus1));
	sh->nm.max = sh->budget;
	if (pskd_norm_text(&sh->nm, &sh->ntext, text, len, words,
	    words ? &sh->seps : NULL) == -1) {
		sh->need = sh->budget + 1;	/* at least */
		return SIZE_MAX;
	}
	end = (uint32_t)sh->ntext.len;
	pskd_buf_add(&sh->seps, &end, sizeof(end));
	if (words)
		sh->nb = sh->seps.len / 4 - 1;
	else
		for (sh->nb = 0, i = 0; i < sh->ntext.len; i++)
			sh->nb += (sh->ntext.p[i] & 0xc0) != 0x80;
	nh = sh->nb >= sh->n ? sh->nb - sh->n + 1 : sh->ntext.len > 0;
	sh->need = need(sh, nh);
	if (sh->budget != 0 && sh->need > sh->budget)
		return SIZE_MAX;
	sh->nh = shingles(sh, sh->ntext.p, sh->ntext.len, sh->cnt);
	return sh->nh;
}

size_t
pskd_shingler_put(struct pskd_shingler *sh, unsigned char *d)
{
	return sort_unique(sh->hv, sh->nh, sh->cnt, d);
}

void
pskd_shingler_release(struct pskd_shingler *sh)
{
	if (sh->ntext.cap + sh->seps.cap + 8 * sh->hvcap < PSKD_KEEP_GROWN)
		return;
	pskd_buf_free(&sh->ntext);
	pskd_buf_free(&sh->seps);
	free(sh->hv);
	sh->hv = NULL;
	sh->hvcap = 0;
}

void
pskd_shingler_free(struct pskd_shingler *sh)
{
	pskd_buf_free(&sh->ntext);
	pskd_buf_free(&sh->seps);
	free(sh->hv);
	free(sh->spans);
	free(sh->pos);
	free(sh->nm.memo);
	memset(sh, 0, sizeof(*sh));
}
