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
#define MEMO_SIZE	(sizeof(struct pskd_norm_memo) << PSKD_NORM_MEMO_BITS)
#define MEMO_SPACE	0x80	/* in a memo's len: its bytes hold a space */

static size_t	cp_norm(const struct pskd_norm *, uint32_t, unsigned char *);

/* The tables of struct pskd_norm_tab. */
static void
tab_init(struct pskd_norm *nm)
{
	struct pskd_norm_tab *t = nm->tab;
	unsigned char b[32 * 4];
	unsigned x, j, k, ns, sp, before, kind;
	uint32_t cp;
	size_t nb;

	for (x = 0; x < 512; x++) {
		t->ctrl[x] = 0x8080808080808080ULL;	/* 0x80: a zero byte */
		for (j = k = ns = 0; j < 8; j++) {
			sp = x >> j & 1;
			before = j == 0 ? x >> 8 : x >> (j - 1) & 1;
			if (sp && before)
				continue;
			t->ctrl[x] &= ~((uint64_t)0xff << 8 * k);
			t->ctrl[x] |= (uint64_t)j << 8 * k;
			if (sp)
				t->sepat[x] |= (uint32_t)k << 8 * ns++;
			k++;
		}
	}
	if (!nm->avx2)
		return;
	for (cp = 0x80; cp < 0x800; cp++) {
		nb = cp_norm(nm, cp, b);
		kind = nb == 1 && b[0] == ' ' ? 1 : nb > 6 ? 2 : 0;
		for (j = 0; j < nb && kind == 0; j++)
			if (b[j] == ' ')
				kind = 2;
		t->two[cp] = nb | kind << 8;
		for (j = 0; j < nb && kind == 0; j++)
			t->two[cp] |= (uint64_t)b[j] << (16 + 8 * j);
	}
}

void
pskd_norm_init(struct pskd_norm *nm, unsigned flags)
{
	unsigned c;

	nm->flags = flags;
	nm->max = 0;
	nm->memo = pskd_xcalloc(1, MEMO_SIZE + sizeof(*nm->tab));
	nm->tab = (struct pskd_norm_tab *)(void *)((char *)nm->memo +
	    MEMO_SIZE);
	nm->avx2 = pskd_simd() >= PSKD_SIMD_AVX2;
	nm->sse2 = pskd_simd() >= PSKD_SIMD_SSE2;
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
	if (flags & PSKD_NORM_LINES)
		nm->ascii['\n'] = '\n';
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
	tab_init(nm);
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
	size_t		 qcap, svcap;	/* the room at q, in bytes; at sv */
};

/*
 * Room for what may be written from the input left bytes before its end:
 * ASCII writes at most a byte a byte, and whole 16- or 32-byte chunks
 * (which may pass what counts by 32 bytes); at most one separator per 2
 * bytes, stored four at a time.  (A code point outside ASCII asks for 128
 * more.)
 */
static inline void
room(struct norm_out *o, struct pskd_buf *out, size_t start,
    struct pskd_buf *seps, size_t left)
{
	if (o->qcap - o->l < left + 32) {
		out->len = start + o->l;
		pskd_buf_reserve(out, left + 32);
		o->q = out->p + start;
		o->qcap = out->cap - start;
	}
	if (o->sv != NULL && o->svcap - o->ns < left / 2 + 6) {
		seps->len = 4 * o->ns;
		pskd_buf_reserve(seps, 4 * (left / 2 + 6));
		o->sv = (uint32_t *)(void *)seps->p;
		o->svcap = seps->cap / 4;
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
 * The normalised bytes of the code point cp to b, ' ' for a space:
 * decomposed, folded and mapped by utf8proc.  Returns how many (at most
 * 128).
 */
static size_t
cp_norm(const struct pskd_norm *nm, uint32_t cp, unsigned char *b)
{
	utf8proc_int32_t d[32];
	utf8proc_ssize_t nd, j;
	size_t nb = 0;
	int last = 0, opts = 0;

	if (nm->flags & PSKD_NORM_CASE)
		opts |= UTF8PROC_CASEFOLD;
	if (nm->flags & PSKD_NORM_MARKS)
		opts |= UTF8PROC_COMPAT | UTF8PROC_DECOMPOSE |
		    UTF8PROC_STRIPMARK;
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
	return nb;
}

/*
 * One code point at s[0..n), key its k bytes (0 if none): normalised,
 * written at o (the caller made room for 128 bytes), and remembered in the
 * memo when it took k bytes and is short enough.  Returns the bytes it
 * took.
 */
static size_t
norm_cp(const struct pskd_norm *nm, struct norm_out *o, const unsigned char *s,
    size_t n, uint32_t key, size_t k, int collapse)
{
	struct pskd_norm_memo *e;
	unsigned char b[32 * 4];
	uint32_t cp;
	size_t len, nb;

	len = pskd_utf8_decode(s, n, &cp);
	if (len == 0)
		len = 1, cp = 0xfffd;	/* callers pass valid UTF-8 */
	nb = cp_norm(nm, cp, b);
	if (key != 0 && len == k && nb <= sizeof(e->out)) {
		e = memo_slot(nm, key);
		e->key = key;
		e->len = (unsigned char)(nb | (memchr(b, ' ', nb) ? MEMO_SPACE :
		    0));
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
		if (e->key == key && !(e->len & MEMO_SPACE)) {
			/* No space to collapse: the bytes, 11 at once. */
			memcpy(o->q + o->l, e->out, sizeof(e->out));
			o->l += e->len;
			o->sp &= e->len == 0;
			return k;
		}
		if (e->key == key) {
			put_bytes(o, e->out, e->len & ~MEMO_SPACE, collapse);
			return k;
		}
	}
	return norm_cp(nm, o, s, n, key, k, collapse);
}

/*
 * A code point at s[0..n) for the AVX2 level: of two bytes, from the
 * table (the bytes stored 8 at once; room was made for 128), else as
 * norm_multi() does.  Returns the bytes it took.
 */
static inline size_t
norm_two(const struct pskd_norm *nm, struct norm_out *o,
    const unsigned char *s, size_t n, int collapse)
{
	uint64_t e;

	if (s[0] >= 0xc2 && s[0] < 0xe0 && n >= 2 && (s[1] & 0xc0) == 0x80) {
		e = nm->tab->two[(s[0] & 0x1f) << 6 | (s[1] & 0x3f)];
		if ((e >> 8 & 0xff) == 0) {
			pskd_put_le64(o->q + o->l, e >> 16);
			o->l += e & 0xff;
			o->sp &= (e & 0xff) == 0;
			return 2;
		}
		if ((e >> 8 & 0xff) == 1) {
			put_bytes(o, (const unsigned char *)" ", 1, collapse);
			return 2;
		}
	}
	return norm_multi(nm, o, s, n, collapse);
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
	const __m128i nl = _mm_set1_epi8((nm->flags & PSKD_NORM_LINES) ?
	    '\n' : -1);	/* -1: no ASCII byte */
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
		space = _mm_andnot_si128(_mm_cmpeq_epi8(v, nl), space);
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
#define AVX2	__attribute__((target("avx2,popcnt,bmi,bmi2")))

/* What chunk32() needs at hand: the map's constants, the tables. */
struct avx2_ctx {
	__m256i		 a, z25, zero, d9, ctl, del, sp, caseadd, digits;
	__m256i		 punct, nl;
	const struct pskd_norm_tab *t;
	const uint32_t	*spos;
	const unsigned char *scount;
	int		 collapse;
};

/*
 * Two 8-byte groups of a chunk, the 16 mapped bytes lane, the first
 * starting at bit g of the masks: each group's kept bytes packed to its
 * front by a shuffle from the table (indexed by its space mask and the
 * space before it) and stored 8 bytes at a time, each store overwriting
 * the dropped bytes of the one before; the kept spaces' offsets from the
 * table too.  k: the kept bytes, sk: the kept spaces, pv: for each byte,
 * whether the one before is a space.
 */
AVX2 __attribute__((always_inline)) static inline void
groups(const struct avx2_ctx *c, struct norm_out *o, __m128i lane,
    unsigned g, uint32_t sp, uint32_t pv, uint32_t k, uint32_t sk)
{
	unsigned ia = (sp >> g & 0xff) | (pv >> g & 1) << 8;
	unsigned ib = (sp >> (g + 8) & 0xff) | (pv >> (g + 8) & 1) << 8;
	__m128i b = _mm_shuffle_epi8(lane, _mm_set_epi64x((long long)
	    (c->t->ctrl[ib] + 0x0808080808080808ULL),
	    (long long)c->t->ctrl[ia]));
	__m128i p;

	_mm_storel_epi64((__m128i *)(void *)(o->q + o->l), b);
	if (o->sv != NULL) {
		p = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)c->t->sepat[ia]));
		_mm_storeu_si128((__m128i *)(void *)(o->sv + o->ns),
		    _mm_add_epi32(p, _mm_set1_epi32((int)o->l)));
		o->ns += (size_t)__builtin_popcount(sk >> g & 0xff);
	}
	o->l += (size_t)__builtin_popcount(k >> g & 0xff);
	_mm_storel_epi64((__m128i *)(void *)(o->q + o->l),
	    _mm_unpackhi_epi64(b, b));
	if (o->sv != NULL) {
		p = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)c->t->sepat[ib]));
		_mm_storeu_si128((__m128i *)(void *)(o->sv + o->ns),
		    _mm_add_epi32(p, _mm_set1_epi32((int)o->l)));
		o->ns += (size_t)__builtin_popcount(sk >> (g + 8) & 0xff);
	}
	o->l += (size_t)__builtin_popcount(k >> (g + 8) & 0xff);
}

/* The separators of an 8-bit piece of the space mask, at offset l. */
AVX2 __attribute__((always_inline)) static inline void
seps8(const struct avx2_ctx *c, struct norm_out *o, unsigned b, size_t l)
{
	__m128i p = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)c->spos[b]));

	_mm_storeu_si128((__m128i *)(void *)(o->sv + o->ns),
	    _mm_add_epi32(p, _mm_set1_epi32((int)l)));
	o->ns += c->scount[b];
}

/*
 * The 32 bytes at p, of which the first lim (1..32) are text: those
 * before the first byte of 0x80 or more normalised to o.  The map: a
 * letter is a byte whose lower case (| 0x20) is one, so that case folding
 * is an or; a space a control byte, DEL, or with punct anything else
 * that is not a letter or digit; ranges are tested as unsigned minima.
 * A chunk that drops no byte is stored whole; one with spaces after
 * spaces goes through groups().  Returns how many bytes it took.
 */
AVX2 __attribute__((always_inline)) static inline size_t
chunk32(const struct avx2_ctx *c, struct norm_out *o, const unsigned char *p,
    size_t lim)
{
	__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
	__m256i t, let, dg, space, m;
	uint32_t hi = (uint32_t)_mm256_movemask_epi8(v), s, pv, k;
	unsigned valid;

	valid = (unsigned)__builtin_ctzll((uint64_t)hi | (uint64_t)1 << lim);
	if (valid == 0)
		return 0;
	t = _mm256_sub_epi8(_mm256_or_si256(v, c->sp), c->a);
	let = _mm256_cmpeq_epi8(_mm256_min_epu8(t, c->z25), t);
	t = _mm256_sub_epi8(v, c->zero);
	dg = _mm256_cmpeq_epi8(_mm256_min_epu8(t, c->d9), t);
	space = _mm256_or_si256(_mm256_or_si256(_mm256_cmpgt_epi8(c->ctl, v),
	    _mm256_cmpeq_epi8(v, c->del)),
	    _mm256_andnot_si256(_mm256_or_si256(let, dg), c->punct));
	space = _mm256_andnot_si256(_mm256_cmpeq_epi8(v, c->nl), space);
	m = _mm256_or_si256(v, _mm256_and_si256(let, c->caseadd));
	m = _mm256_blendv_epi8(m, c->zero, _mm256_and_si256(dg, c->digits));
	m = _mm256_blendv_epi8(m, c->sp, space);
	if (!c->collapse) {
		_mm256_storeu_si256((__m256i *)(void *)(o->q + o->l), m);
		o->l += valid;
		return valid;
	}
	s = (uint32_t)_mm256_movemask_epi8(space);
	pv = s << 1 | (uint32_t)o->sp;
	k = ~(s & pv) & _bzhi_u32(~0u, valid);
	if (k == ~0u) {
		_mm256_storeu_si256((__m256i *)(void *)(o->q + o->l), m);
		if (o->sv != NULL) {
			seps8(c, o, s & 0xff, o->l);
			seps8(c, o, s >> 8 & 0xff, o->l + 8);
			seps8(c, o, s >> 16 & 0xff, o->l + 16);
			seps8(c, o, s >> 24, o->l + 24);
		}
		o->l += 32;
		o->sp = (int)(s >> 31);
		return 32;
	}
	groups(c, o, _mm256_castsi256_si128(m), 0, s, pv, k, s & k);
	groups(c, o, _mm256_extracti128_si256(m, 1), 16, s, pv, k, s & k);
	o->sp = (int)(s >> (valid - 1) & 1);
	return valid;
}

/*
 * ASCII text from s[i..end) 32 bytes at a time, the last few read in
 * place when 32 bytes may be read there (up to readable: chunk32 ignores
 * what follows the text), else from a padded copy; returns where it
 * stopped: end, or a byte of 0x80 or more.  It works on a copy of the
 * fields of *out it uses, which the stores cannot alias (copied one by
 * one: the caller has just stored the room beside them, and a wider load
 * over it would wait for those stores).
 */
AVX2 static size_t
norm_avx2(const struct pskd_norm *nm, struct norm_out *out,
    const unsigned char *s, size_t i, size_t end, size_t readable,
    int collapse)
{
	struct avx2_ctx c;
	struct norm_out o;
	unsigned char tail[32];
	size_t took;

	c.a = _mm256_set1_epi8('a');
	c.z25 = _mm256_set1_epi8(25);
	c.zero = _mm256_set1_epi8('0');
	c.d9 = _mm256_set1_epi8(9);
	c.ctl = _mm256_set1_epi8('!');
	c.del = _mm256_set1_epi8(0x7f);
	c.sp = _mm256_set1_epi8(' ');
	c.caseadd = _mm256_set1_epi8((nm->flags & PSKD_NORM_CASE) ? 0x20 : 0);
	c.digits = _mm256_set1_epi8((nm->flags & PSKD_NORM_DIGITS) ? -1 : 0);
	c.punct = _mm256_set1_epi8((nm->flags & PSKD_NORM_PUNCT) ? -1 : 0);
	c.nl = _mm256_set1_epi8((nm->flags & PSKD_NORM_LINES) ? '\n' : -1);
	c.t = nm->tab;
	c.spos = nm->spos;
	c.scount = nm->scount;
	c.collapse = collapse;
	o.q = out->q;
	o.l = out->l;
	o.sv = out->sv;
	o.ns = out->ns;
	o.sp = out->sp;
	for (;;) {
		if (end - i >= 32)
			took = chunk32(&c, &o, s + i, 32);
		else if (i < end && readable - i >= 32)
			took = chunk32(&c, &o, s + i, end - i);
		else if (i < end) {
			memset(tail, 0, sizeof(tail));
			memcpy(tail, s + i, end - i);
			took = chunk32(&c, &o, tail, end - i);
		} else
			break;
		i += took;
		if (took < 32)
			break;
	}
	out->l = o.l;
	out->ns = o.ns;
	out->sp = o.sp;
	return i;
}
#endif

/*
 * Whether the text and separators so far pass nm->max even without the
 * space after the last word (one byte, one separator), which the end
 * takes back: only then is the whole sure to pass it, so every level
 * stops on the same texts, wherever its chunks end.
 */
static inline int
over(const struct pskd_norm *nm, const struct norm_out *o)
{
	return nm->max != 0 && o->l + 4 * o->ns > nm->max + 5;
}

int
pskd_norm_text(const struct pskd_norm *nm, struct pskd_buf *out,
    const unsigned char *s, size_t n, int words, struct pskd_buf *seps)
{
	return pskd_norm_text_in(nm, out, s, n, 0, words, seps);
}

int
pskd_norm_text_in(const struct pskd_norm *nm, struct pskd_buf *out,
    const unsigned char *s, size_t n, size_t slack, int words,
    struct pskd_buf *seps)
{
	struct norm_out o;
	size_t i = 0, lim, end, start = out->len;
	int collapse = words || (nm->flags & PSKD_NORM_SPACE);

	if (!collapse)
		seps = NULL;
	o.q = out->p + start;
	o.qcap = out->cap - start;
	o.l = 0;
	o.sv = NULL;
	o.ns = 0;
	o.svcap = 0;
	o.sp = 1;
	if (seps != NULL) {
		if (seps->p == NULL)	/* o.sv says whether seps are wanted */
			pskd_buf_reserve(seps, 64);
		o.sv = (uint32_t *)(void *)seps->p;
		o.ns = seps->len / 4;
		o.svcap = seps->cap / 4;
	}
	room(&o, out, start, seps, n);
	while (i < n) {
		/* With max, a step at a time, to stop soon after it. */
		end = nm->max != 0 && n - i > STEP ? i + STEP : n;
#ifdef HAVE_AVX2
		if (nm->avx2) {
			i = norm_avx2(nm, &o, s, i, end, n + slack, collapse);
			/*
			 * The code points of a run outside ASCII, and the
			 * single ASCII bytes (spaces) between them.
			 */
			while (i < end) {
				if (s[i] < 0x80) {
					if (i + 1 == end || s[i + 1] < 0x80)
						break;
					i = norm_ascii(nm, &o, s, i, i + 1,
					    collapse);
					continue;
				}
				room(&o, out, start, seps, n - i + 128);
				i += norm_two(nm, &o, s + i, n - i, collapse);
			}
			if (over(nm, &o))
				break;
			continue;
		}
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
		if (over(nm, &o))
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
