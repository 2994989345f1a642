/*
 * input.c - the token stream pskd-export reads (.psk.d, idx[V], one token
 * a sample): its header, whole tokens a chunk at a time, and the scan that
 * finds the end-of-text ids and any id out of bound in one pass.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "export/export.h"

void
xin_open(struct xin *in, const char *path)
{
	const struct pskd_leaf *l;
	struct pskd_error e;
	struct stat st;
	off_t off;

	memset(in, 0, sizeof(*in));
	if (pskd_reader_open(&in->r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	in->name = in->r.name;
	if (fstat(in->r.fd, &st) == 0 && S_ISREG(st.st_mode))
		in->regular = 1;
	if (pskd_header_read(&in->h, &in->r, &e) == -1)
		pskd_fail_at(in->name, 0, "%s", e.msg);
	l = in->h.type.leaves;
	if (in->h.type.params || in->h.type.nleaves != 1 || l->real ||
	    l->ndim != 0)
		pskd_fail_at(in->name, 0, "E%d: not a token stream: type %s "
		    "is not idx[V] (pipe pskd-tok into it)", PSKD_E_MISMATCH,
		    in->h.type.text);
	in->bound = l->bound;
	in->w = l->width;
	in->count = in->h.count;
	if (in->regular && (off = lseek(in->r.fd, 0, SEEK_CUR)) != -1)
		in->start = (int64_t)(off - (off_t)(in->r.end - in->r.pos));
	else
		in->regular = 0;
	if (in->regular && st.st_size >= in->start) {
		in->mapped = 1;
		in->size = (uint64_t)st.st_size;
		in->pos = (uint64_t)in->start;
	}
}

/*
 * The window over [pos, pos + want), or as much of it as the file holds:
 * the bytes there, their number in *got.  Read through the window, not
 * read(2): no copy to a buffer, and hashed in place.  A file that shrinks
 * while it is read ends the run by SIGBUS (the read of a page past its new
 * end), which lib's handler reports in a line after removing the
 * temporaries.
 */
static const unsigned char *
window(struct xin *in, size_t want, size_t *got)
{
	static size_t page;
	uint64_t left = in->pos < in->size ? in->size - in->pos : 0, at;
	size_t n = left < want ? (size_t)left : want;
	void *m;

	*got = n;
	if (n == 0)
		return NULL;
	if (in->map == NULL || in->pos < in->mapoff ||
	    in->pos + n > in->mapoff + in->maplen) {
		if (page == 0)
			page = (size_t)sysconf(_SC_PAGESIZE);
		/*
		 * What was borrowed from the window before the last is
		 * hashed first; the last stays mapped until the next move,
		 * with nothing pending in it any more.
		 */
		if (in->map != NULL && in->moving != NULL)
			in->moving(in->moving_arg);
		if (in->old != NULL) {
			xhash_wait(in->oldticket);
			(void)munmap(in->old, in->oldlen);
		}
		in->old = in->map;
		in->oldlen = in->maplen;
		in->oldticket = xhash_ticket();
		in->map = NULL;
		at = in->pos / page * page;
		in->maplen = in->size - at < XWINDOW ? (size_t)(in->size - at) :
		    XWINDOW;
		m = mmap(NULL, in->maplen, PROT_READ, MAP_SHARED, in->r.fd,
		    (off_t)at);
		if (m == MAP_FAILED)
			pskd_err(PSKD_EXIT_DATA, "%s", in->name);
		(void)madvise(m, in->maplen, MADV_SEQUENTIAL);
		in->map = m;
		in->mapoff = at;
	}
	return in->map + (in->pos - in->mapoff);
}

size_t
xin_next(struct xin *in, const unsigned char **p)
{
	size_t want = XCHUNK / in->w * in->w, n, had;
	ssize_t got;

	if (in->mapped) {
		*p = window(in, want, &had);
		got = (ssize_t)had;
	} else
		got = pskd_reader_peek(&in->r, want, p);
	if (got < 0)
		pskd_err(PSKD_EXIT_DATA, "%s", in->name);
	n = (size_t)got / in->w;
	if (n > want / in->w)
		n = want / in->w;
	if (in->count != PSKD_COUNT_STREAM && in->seen == in->count &&
	    got > 0)
		pskd_fail_at(in->name, 0, "E%d: data after the last of %llu "
		    "tokens", PSKD_E_MAGIC, (unsigned long long)in->count);
	if (in->count != PSKD_COUNT_STREAM && n > in->count - in->seen)
		n = (size_t)(in->count - in->seen);
	if (n > 0)
		return n;
	if (got > 0)
		pskd_fail_at(in->name, 0, "E%d: truncated: %zd bytes after "
		    "the last whole token", PSKD_E_TRUNC, got);
	if (in->count != PSKD_COUNT_STREAM && in->seen < in->count)
		pskd_fail_at(in->name, 0, "E%d: truncated at token %llu (%llu "
		    "declared)", PSKD_E_TRUNC, (unsigned long long)in->seen,
		    (unsigned long long)in->count);
	return 0;
}

void
xin_skip(struct xin *in, size_t ntok)
{
	if (in->mapped)
		in->pos += ntok * in->w;
	else
		pskd_reader_skip(&in->r, ntok * in->w);
	in->seen += ntok;
}

void
xin_rewind(struct xin *in)
{
	if (lseek(in->r.fd, (off_t)in->start, SEEK_SET) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", in->name);
	in->r.pos = in->r.end = 0;
	in->r.eof = 0;
	in->seen = 0;
	in->pos = (uint64_t)in->start;
}

void
xin_close(struct xin *in)
{
	if (in->map != NULL || in->old != NULL)
		xhash_drain();
	if (in->map != NULL)
		(void)munmap(in->map, in->maplen);
	if (in->old != NULL)
		(void)munmap(in->old, in->oldlen);
	in->map = in->old = NULL;
	pskd_header_free(&in->h);
	pskd_reader_close(&in->r);
}

uint64_t
xin_token(const unsigned char *p, size_t i, unsigned w)
{
	switch (w) {
	case 1: return p[i];
	case 2: return pskd_get_le16(p + 2 * i);
	case 4: return pskd_get_le32(p + 4 * i);
	default: return pskd_get_le64(p + 8 * i);
	}
}

/* ---- the scan ------------------------------------------------------------ */

static int portable;

void
xscan_portable(int on)
{
	portable = on;
}

/* One token at a time: the reference the block scans must agree with. */
static size_t
scan_one(const unsigned char *p, size_t from, size_t n, unsigned w,
    uint64_t eot, uint64_t limit, uint32_t *pos, size_t k, size_t *bad)
{
	size_t i;
	uint64_t v;

	for (i = from; i < n; i++) {
		v = xin_token(p, i, w);
		if (v >= limit) {
			*bad = i;
			return k;
		}
		if (v == eot)
			pos[k++] = (uint32_t)i;
	}
	*bad = n;
	return k;
}

/*
 * Blocks of 64 tokens, copied into an array of their own width so that the
 * compiler's vectoriser sees plain loads: the largest id and whether the
 * end-of-text id is there; only a block that has one is walked.
 */
#define BLOCK 64
#define SCAN_WIDTH(NAME, T, GET)					\
static size_t								\
NAME(const unsigned char *p, size_t n, T eot, uint64_t limit,		\
    uint32_t *pos, size_t *bad)						\
{									\
	T v[BLOCK], mx;							\
	size_t i, j, k = 0;						\
	unsigned hit;							\
									\
	for (i = 0; i + BLOCK <= n; i += BLOCK) {			\
		for (j = 0; j < BLOCK; j++)				\
			v[j] = GET(p + (i + j) * sizeof(T));		\
		mx = 0;							\
		hit = 0;						\
		for (j = 0; j < BLOCK; j++) {				\
			mx = v[j] > mx ? v[j] : mx;			\
			hit |= v[j] == eot;				\
		}							\
		if (mx >= limit)					\
			return scan_one(p, i, n, sizeof(T), eot, limit,	\
			    pos, k, bad);				\
		if (hit)						\
			for (j = 0; j < BLOCK; j++) {			\
				pos[k] = (uint32_t)(i + j);		\
				k += v[j] == eot;			\
			}						\
	}								\
	return scan_one(p, i, n, sizeof(T), eot, limit, pos, k, bad);	\
}

static inline uint8_t
get8(const unsigned char *p)
{
	return *p;
}

SCAN_WIDTH(scan8, uint8_t, get8)
SCAN_WIDTH(scan16, uint16_t, pskd_get_le16)
SCAN_WIDTH(scan32, uint32_t, pskd_get_le32)

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/*
 * AVX2, 32 bytes a step: the end-of-text ids as a bit mask (walked with
 * ctz), the largest id kept in a vector and compared with the limit every
 * 4 KiB, and at the end.  16 or 32 bits an id.
 */
#define SCAN_AVX2(NAME, T, EQ, MAX, SET1, PER)				\
__attribute__((target("avx2"))) static size_t				\
NAME(const unsigned char *p, size_t n, T eot, uint64_t limit,		\
    uint32_t *pos, size_t *bad)						\
{									\
	const __m256i e = SET1((T)eot);					\
	__m256i mx = _mm256_setzero_si256();				\
	size_t i = 0, k = 0, checked = 0;				\
	T lanes[32 / sizeof(T)], top;					\
	unsigned m, j;							\
									\
	for (;;) {							\
		for (; i + PER <= n && (i - checked) * sizeof(T) < 4096;	\
		    i += PER) {						\
			__m256i v = _mm256_loadu_si256((const __m256i *)\
			    (const void *)(p + i * sizeof(T)));		\
			mx = MAX(mx, v);				\
			m = (unsigned)_mm256_movemask_epi8(EQ(v, e));	\
			while (m != 0) {				\
				j = (unsigned)__builtin_ctz(m);		\
				pos[k++] = (uint32_t)(i + j / sizeof(T));	\
				m &= ~((sizeof(T) == 2 ? 3u : 15u) << j);	\
			}						\
		}							\
		_mm256_storeu_si256((__m256i *)(void *)lanes, mx);	\
		for (top = 0, j = 0; j < 32 / sizeof(T); j++)		\
			top = lanes[j] > top ? lanes[j] : top;		\
		if (top >= limit)					\
			return scan_one(p, checked, n, sizeof(T), eot, limit,	\
			    pos, k - count_from(pos, k, checked), bad);	\
		checked = i;						\
		if (i + PER > n)					\
			break;						\
	}								\
	return scan_one(p, i, n, sizeof(T), eot, limit, pos, k, bad);	\
}

/* Of the positions in pos[0..k), those at or after from. */
static size_t
count_from(const uint32_t *pos, size_t k, size_t from)
{
	size_t c = 0;

	while (c < k && pos[k - 1 - c] >= from)
		c++;
	return c;
}

SCAN_AVX2(scan16_avx2, uint16_t, _mm256_cmpeq_epi16, _mm256_max_epu16,
    _mm256_set1_epi16, 16)
SCAN_AVX2(scan32_avx2, uint32_t, _mm256_cmpeq_epi32, _mm256_max_epu32,
    _mm256_set1_epi32, 8)

static int
avx2(void)
{
	static int v = -1;

	if (v == -1)
		v = pskd_simd() >= PSKD_SIMD_AVX2;
	return v;
}
#endif

size_t
xscan(const unsigned char *p, size_t n, unsigned w, uint64_t eot,
    uint64_t limit, uint32_t *pos, size_t *bad)
{
	/* An eot that cannot occur in this width is never found. */
	if (portable || w == 8 || (w < 8 && eot >> (8 * w) != 0))
		return scan_one(p, 0, n, w, eot, limit, pos, 0, bad);
#if defined(__x86_64__) && defined(__GNUC__)
	if (w == 2 && avx2())
		return scan16_avx2(p, n, (uint16_t)eot, limit, pos, bad);
	if (w == 4 && avx2())
		return scan32_avx2(p, n, (uint32_t)eot, limit, pos, bad);
#endif
	switch (w) {
	case 1: return scan8(p, n, (uint8_t)eot, limit, pos, bad);
	case 2: return scan16(p, n, (uint16_t)eot, limit, pos, bad);
	default: return scan32(p, n, (uint32_t)eot, limit, pos, bad);
	}
}
