/*
 * samples.c - .psk.d streams: a token stream (idx[V], one token a sample)
 * with its documents and the count of every id; windows (the pairs of
 * pskd-window, their --single form, and batches of either) with the
 * end-of-text ids in each; any other type as samples.  Every token is
 * checked against its bound.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2	1
#endif

#include "pskd.h"
#include "batch/pack.h"
#include "stats/collect.h"

/* Bytes asked of the reader at a time, at least one sample. */
#define CHUNK	(1u << 20)

struct walk {
	struct pskd_reader *r;
	struct stats	*s;
	const struct pskd_leaf *leaf;	/* tokens, windows: the first leaf */
	unsigned	 w;		/* its element width */
	uint64_t	 seen;		/* samples before the current chunk */
	uint64_t	 last;		/* tokens: one past the last eot */
	uint64_t	 per;		/* windows: windows in a sample */
	int		 single;	/* windows: one leaf of T+1 */
	const struct pskd_leaf *seg;	/* windows: their segment ids */
	struct pack	*pack;		/* tokens: --align, --pack */
	int		 avx2;		/* the vector scan may run */
	const struct pskd_type *type;
	uint32_t	*cnt;		/* tokens: two tables of vocab counts */
	uint64_t	 pending;	/* tokens counted there since a flush */
};

static inline uint64_t
token(const unsigned char *p, unsigned w)
{
	return w == 1 ? p[0] : w == 2 ? pskd_get_le16(p) :
	    w == 4 ? pskd_get_le32(p) : pskd_get_le64(p);
}

/* Refuse the first of n tokens at p at or above the bound. */
static _Noreturn void
bound_fail(const struct walk *wk, const unsigned char *p, size_t n,
    uint64_t first)
{
	uint64_t i = pskd_idx_over(p, n, wk->w, wk->leaf->bound);

	pskd_fail_at(wk->r->name, 0, "E%d: token %llu: %llu out of bound "
	    "idx[%llu]", PSKD_E_VALUE, (unsigned long long)(first + i),
	    (unsigned long long)token(p + i * wk->w, wk->w),
	    (unsigned long long)wk->leaf->bound);
}

/* Token number at is the end-of-text id: a document ends. */
static inline void
eot_at(struct walk *wk, uint64_t at)
{
	struct stats *s = wk->s;

	if (s->neot == 0)
		s->head = at;
	else
		stats_dist_add(&s->inner, at - wk->last);
	s->neot++;
	if (wk->pack != NULL) {
		pack_data(wk->pack, NULL, at + 1 - wk->last);
		pack_doc_end(wk->pack);
	}
	wk->last = at + 1;
}

/* Tokens per pass: scanned, then counted, while they are in the cache. */
#define PASS	8192

/*
 * The scan of n tokens at p, the first of them token number first: every
 * end-of-text id, in order, and whether a token is out of bound (nonzero).
 */
static int
scan_scalar(struct walk *wk, const unsigned char *p, size_t n, uint64_t first)
{
	const uint64_t eot = wk->s->eot, bound = wk->leaf->bound;
	const unsigned w = wk->w;
	uint64_t v;
	size_t i;
	int over = 0;

	for (i = 0; i < n; i++) {
		v = token(p + i * w, w);
		over |= v >= bound;
		if (v == eot)
			eot_at(wk, first + i);
	}
	return over;
}

#ifdef HAVE_AVX2
/*
 * The same sixty-four bytes at a time for 1-, 2- and 4-byte tokens: a
 * running unsigned maximum checked against the bound at the end (a bound
 * of 2^(8w) is all ones, which no lane passes), and the end-of-text
 * compares looked into only when one of them hit; pick keeps one bit of
 * the byte mask per token.
 */
#define SCAN64(SET, EQ, MAX, T, PICK) do {				\
	const __m256i ev = SET((T)eotv), lim = SET((T)limv);		\
	__m256i x, y, mx = _mm256_setzero_si256();			\
	uint64_t m;							\
									\
	for (; i + 64 <= nb; i += 64) {					\
		x = _mm256_loadu_si256((const void *)(p + i));		\
		y = _mm256_loadu_si256((const void *)(p + i + 32));	\
		mx = MAX(mx, MAX(x, y));				\
		x = EQ(x, ev);						\
		y = EQ(y, ev);						\
		if (_mm256_testz_si256(_mm256_or_si256(x, y),		\
		    _mm256_or_si256(x, y)))				\
			continue;					\
		m = ((uint64_t)(uint32_t)_mm256_movemask_epi8(y) << 32 |	\
		    (uint32_t)_mm256_movemask_epi8(x)) & (PICK);	\
		for (; m != 0; m &= m - 1)				\
			eot_at(wk, first + (i + (unsigned)		\
			    __builtin_ctzll(m)) / w);			\
	}								\
	x = EQ(MAX(mx, lim), lim);					\
	over = (uint32_t)_mm256_movemask_epi8(x) != UINT32_MAX;		\
} while (0)

__attribute__((target("avx2"))) static int
scan_avx2(struct walk *wk, const unsigned char *p, size_t n, uint64_t first)
{
	const unsigned w = wk->w;
	const uint64_t limv = wk->leaf->bound - 1, eotv = wk->s->eot;
	const size_t nb = n * w;
	size_t i = 0;
	int over;

	switch (w) {
	case 1:
		SCAN64(_mm256_set1_epi8, _mm256_cmpeq_epi8, _mm256_max_epu8,
		    char, UINT64_MAX);
		break;
	case 2:
		SCAN64(_mm256_set1_epi16, _mm256_cmpeq_epi16,
		    _mm256_max_epu16, short, 0x5555555555555555ULL);
		break;
	default:
		SCAN64(_mm256_set1_epi32, _mm256_cmpeq_epi32,
		    _mm256_max_epu32, int, 0x1111111111111111ULL);
		break;
	}
	return over | scan_scalar(wk, p + i, n - i / w, first + i / w);
}
#endif

/* Add the counts of the pass tables to the object's, and clear them. */
static void
flush_counts(struct walk *wk)
{
	uint64_t *ids = wk->s->ids, v = wk->s->vocab, i;

	for (i = 0; i < v; i++) {
		ids[i] += (uint64_t)wk->cnt[i] + wk->cnt[v + i];
		wk->cnt[i] = wk->cnt[v + i] = 0;
	}
	wk->pending = 0;
}

/*
 * Count n tokens that are in bound into two tables of 32-bit counts, the
 * even ones and the odd ones: a run of one id does not wait on its own
 * last increment as often.
 */
#define COUNT2(GET, W) do {						\
	for (i = 0; i + 2 <= n; i += 2) {				\
		x[GET(p + (W) * i)]++;					\
		y[GET(p + (W) * i + (W))]++;				\
	}								\
	if (i < n)							\
		x[GET(p + (W) * i)]++;					\
} while (0)

static inline uint64_t get8(const unsigned char *p) { return p[0]; }

static void
count(struct walk *wk, const unsigned char *p, size_t n)
{
	uint32_t *x = wk->cnt, *y = wk->cnt + wk->s->vocab;
	size_t i;

	if (wk->pending + n > UINT32_MAX)
		flush_counts(wk);
	switch (wk->w) {
	case 1: COUNT2(get8, 1); break;
	case 2: COUNT2(pskd_get_le16, 2); break;
	case 4: COUNT2(pskd_get_le32, 4); break;
	default: COUNT2(pskd_get_le64, 8); break;
	}
	wk->pending += n;
}

/*
 * n tokens at p, pass by pass: checked against the bound, every
 * end-of-text id to eot_at(), counted when the ids are.
 */
static void
tokens_chunk(struct walk *wk, const unsigned char *p, size_t n)
{
	const unsigned w = wk->w;
	const uint64_t first = wk->seen;
	size_t off, m;
	int over;

	for (off = 0; off < n; off += m) {
		m = n - off < PASS ? n - off : PASS;
#ifdef HAVE_AVX2
		if (w < 8 && wk->avx2)
			over = scan_avx2(wk, p + off * w, m, first + off);
		else
#endif
			over = scan_scalar(wk, p + off * w, m, first + off);
		if (over)
			bound_fail(wk, p + off * w, m, first + off);
		if (wk->cnt != NULL)
			count(wk, p + off * w, m);
	}
}

/* Every element of n samples at p in its bound (every real exact). */
static void
check_samples(struct walk *wk, const unsigned char *p, size_t n)
{
	struct pskd_error e;
	uint64_t bad;

	if (pskd_samples_check(wk->type, p, n, &bad, &e) == 0)
		return;
	pskd_error_prefix(&e, "sample %llu",
	    (unsigned long long)(wk->seen + bad));
	pskd_fail_at(wk->r->name, 0, "%s", e.msg);
}

static void
windows_chunk(struct walk *wk, const unsigned char *p, size_t n)
{
	struct stats *s = wk->s;
	const uint64_t T = s->seq, eot = s->eot, R = T + 1;
	const unsigned w = wk->w;
	const uint64_t ss = s->sample_size;
	const struct pskd_leaf *sl = wk->seg;
	const size_t tgoff = (size_t)(wk->single ? w :
	    wk->type->leaves[1].offset);
	const unsigned char *in, *tg;
	uint64_t j, k, e, nseg, npad;
	size_t i;

	check_samples(wk, p, n);
	for (i = 0; i < n; i++, p += ss) {
		for (j = 0; j < wk->per; j++) {
			in = p + j * (T + (uint64_t)wk->single) * w;
			tg = in + tgoff;
			for (k = 0, e = 0; k < T; k++)
				e += token(in + k * w, w) == eot;
			stats_dist_add(&s->eot_per_window, e);
			s->shifted += memcmp(in + w, tg, (T - 1) * w) == 0;
			if (sl == NULL)
				continue;
			if (pack_segments_read(p + sl->offset + j * R *
			    sl->width, sl->width, R, &nseg, &npad) == -1)
				pskd_fail_at(wk->r->name, 0, "E%d: sample "
				    "%llu, window %llu: the segment ids are "
				    "not 1, 2, ... then 0 for padding "
				    "(pskd-window(1))", PSKD_E_VALUE,
				    (unsigned long long)(wk->seen + i),
				    (unsigned long long)j);
			stats_dist_add(&s->segments, nseg);
			s->padded += npad;
		}
	}
	s->n += n * wk->per;
}

static void
samples_chunk(struct walk *wk, const unsigned char *p, size_t n)
{
	check_samples(wk, p, n);
}

/*
 * Every whole sample of the stream, chunk by chunk, to fn; then the checks
 * of the count against what came.
 */
static void
walk(struct walk *wk, const struct pskd_header *h,
    void (*fn)(struct walk *, const unsigned char *, size_t))
{
	const uint64_t ss = h->type.sample_size;
	const unsigned char *p;
	size_t want = ss > CHUNK ? (size_t)ss : CHUNK, n;
	ssize_t got;

	for (;;) {
		got = pskd_reader_peek(wk->r, want, &p);
		if (got < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", wk->r->name);
		n = (size_t)((uint64_t)got / ss);
		if (n == 0)
			break;
		if (h->count != PSKD_COUNT_STREAM && wk->seen + n > h->count)
			pskd_fail_at(wk->r->name, 0, "E%d: data after the "
			    "last of %llu samples", PSKD_E_MAGIC,
			    (unsigned long long)h->count);
		fn(wk, p, n);
		pskd_reader_skip(wk->r, (size_t)(n * ss));
		wk->seen += n;
		collect_progress(wk->r);
	}
	if (got > 0)
		pskd_fail_at(wk->r->name, 0, "E%d: truncated: %zu byte%s after "
		    "the last whole sample", PSKD_E_TRUNC, (size_t)got,
		    got == 1 ? "" : "s");
	if (h->count != PSKD_COUNT_STREAM && wk->seen < h->count)
		pskd_fail_at(wk->r->name, 0, "E%d: truncated at sample %llu "
		    "(%llu samples declared)", PSKD_E_TRUNC,
		    (unsigned long long)wk->seen, (unsigned long long)h->count);
}

static int
is_tokens(const struct pskd_type *t)
{
	return t->nleaves == 1 && !t->leaves[0].real &&
	    t->leaves[0].ndim == 0;
}

/*
 * Segment ids of windows of rows of R tokens (pskd-window --segments):
 * idx[R+1] with the windows' dimensions but the last, which is R.
 */
static int
is_segments(const struct pskd_leaf *a, const struct pskd_leaf *l,
    uint64_t R)
{
	return !l->real && l->ndim == a->ndim && l->dimname[l->ndim - 1] !=
	    NULL && strcmp(l->dimname[l->ndim - 1], "seg") == 0 &&
	    l->dim[l->ndim - 1] == R && l->bound == R + 1 &&
	    memcmp(l->dim, a->dim, (a->ndim - 1) * sizeof(a->dim[0])) == 0;
}

/*
 * Windows: one idx leaf of rows of T+1, or two of the same shape; either
 * with a leaf of segment ids after them.
 */
static int
is_windows(const struct pskd_type *t, int *single,
    const struct pskd_leaf **seg)
{
	const struct pskd_leaf *a = &t->leaves[0], *b = &t->leaves[1];
	size_t n = t->nleaves;

	*seg = NULL;
	*single = 0;
	if (n < 1 || a->real || a->ndim < 1)
		return 0;
	if (n >= 2 && is_segments(a, &t->leaves[n - 1],
	    a->dim[a->ndim - 1] + (n == 3)))
		*seg = &t->leaves[--n];
	if (n == 1 && a->dim[a->ndim - 1] >= 2) {
		*single = 1;
		return 1;
	}
	if (n == 2 && !b->real && a->bound == b->bound && a->ndim == b->ndim &&
	    memcmp(a->dim, b->dim, a->ndim * sizeof(a->dim[0])) == 0 &&
	    a->dim[a->ndim - 1] >= 1)
		return 1;
	*seg = NULL;
	return 0;
}

static const char *
kind_name(enum collect_kind k)
{
	return k == COLLECT_TOKENS ? "a token stream (idx[V])" :
	    "windows (pskd-window's types)";
}

static void
no_rows(void *arg, const struct pack_row *row)
{
	(void)arg;
	(void)row;
}

/* --align, --pack: pskd-window's packer on the documents' lengths. */
static void
pack_begin(struct walk *wk, struct pack *k, const struct collect_opts *o)
{
	if (o->packing != STATS_PACK_BOS && o->packing != STATS_PACK_BESTFIT)
		return;
	pack_init(k, o->packing == STATS_PACK_BOS ? PACK_ALIGN : PACK_BESTFIT,
	    o->length + 1, 0, (size_t)o->buffer, 0, no_rows, NULL);
	wk->pack = k;
}

static void
pack_end(struct walk *wk, const struct collect_opts *o)
{
	struct stats_eff *e = &wk->s->eff;

	if (o->packing == STATS_PACK_NONE)
		return;
	e->packing = o->packing;
	e->length = o->length;
	e->stride = o->packing == STATS_PACK_PLAIN ? o->stride : 0;
	e->buffer = o->packing == STATS_PACK_BESTFIT ? o->buffer : 0;
	if (wk->pack == NULL) {
		stats_eff_plain(e, wk->s->n);
		return;
	}
	pack_data(wk->pack, NULL, wk->s->n - wk->last);
	pack_finish(wk->pack);
	e->windows = wk->pack->c.rows;
	e->kept = wk->pack->c.kept;
	e->cropped = wk->pack->c.cropped;
	e->padded = wk->pack->c.padded;
	pack_free(wk->pack);
	wk->pack = NULL;
}

void
collect_psk(struct pskd_reader *r, struct stats *s,
    const struct collect_opts *o, enum collect_kind want)
{
	struct pack pk;
	struct pskd_header h;
	struct pskd_error e;
	struct walk wk;
	const struct pskd_type *t;
	enum collect_kind got;
	size_t d;

	memset(&wk, 0, sizeof(wk));
	wk.r = r;
	wk.s = s;
	wk.type = &h.type;
	if (pskd_header_read(&h, r, &e) == -1)
		pskd_fail_at(r->name, 0, "%s", e.msg);
	t = &h.type;
	if (t->params)
		pskd_fail_at(r->name, 0, "E%d: type %s gives no layout to read",
		    PSKD_E_TYPE, t->text);
	got = is_tokens(t) ? COLLECT_TOKENS :
	    is_windows(t, &wk.single, &wk.seg) ? COLLECT_WINDOWS :
	    COLLECT_SAMPLES;
	if (o->packing != STATS_PACK_NONE && got != COLLECT_TOKENS)
		pskd_fail_at(r->name, 0, "E%d: --length counts the windows of "
		    "a token stream (idx[V]), not of type %s", PSKD_E_MISMATCH,
		    t->text);
	if (want != COLLECT_SNIFF && want != COLLECT_SAMPLES && want != got)
		pskd_fail_at(r->name, 0, "E%d: not %s: type %s",
		    PSKD_E_MISMATCH, kind_name(want), t->text);
	if (want == COLLECT_SAMPLES)
		got = COLLECT_SAMPLES;
	s->sample_size = t->sample_size;
	if (got != COLLECT_TOKENS)
		s->type = pskd_type_format(t, NULL, 0);
	s->segs = wk.seg != NULL;
#ifdef HAVE_AVX2
	wk.avx2 = pskd_simd() >= PSKD_SIMD_AVX2;
#endif
	if (got != COLLECT_SAMPLES) {
		wk.leaf = &t->leaves[0];
		wk.w = wk.leaf->width;
		s->vocab = wk.leaf->bound;
		s->eot = o->eot_set ? o->eot : stats_default_eot(s->vocab);
		if (s->eot >= s->vocab)
			pskd_fail_at(r->name, 0, "the end-of-text id %llu is "
			    "out of bound idx[%llu]",
			    (unsigned long long)s->eot,
			    (unsigned long long)s->vocab);
	}
	switch (got) {
	case COLLECT_TOKENS:
		s->kind = STATS_TOKENS;
		stats_want_ids(s);
		if (s->ids != NULL)
			wk.cnt = pskd_xcalloc(2 * (size_t)s->vocab,
			    sizeof(*wk.cnt));
		pack_begin(&wk, &pk, o);
		walk(&wk, &h, tokens_chunk);
		if (wk.cnt != NULL)
			flush_counts(&wk);
		free(wk.cnt);
		s->n = wk.seen;
		if (s->neot == 0)
			s->head = s->n;
		else
			s->tail = s->n - wk.last;
		pack_end(&wk, o);
		break;
	case COLLECT_WINDOWS:
		s->kind = STATS_WINDOWS;
		s->seq = wk.leaf->dim[wk.leaf->ndim - 1] - (uint64_t)wk.single;
		for (wk.per = 1, d = 0; d + 1 < wk.leaf->ndim; d++)
			wk.per *= wk.leaf->dim[d];
		walk(&wk, &h, windows_chunk);
		s->samples = wk.seen;
		break;
	default:
		s->kind = STATS_SAMPLES;
		walk(&wk, &h, samples_chunk);
		s->n = wk.seen;
		break;
	}
	s->bytes = wk.seen * t->sample_size;
	pskd_header_free(&h);
}
