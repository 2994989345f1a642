/*
 * hf-norm.c - the normalizers of tokenizer.json, in the order given: NFC,
 * NFD, NFKC, NFKD (utf8proc), Lowercase (Rust's char::to_lowercase, a
 * character at a time: İ becomes i and a dot, Σ always σ), Strip
 * (White_Space at either end), Prepend (before a text that is not empty),
 * Replace (a string or a regular expression, every match left to right);
 * the text at most PSKD_HF_GROWTH times as long as it came.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "pskd.h"
#include "hf.h"
#include "bpe-pretok.h"

static int
is_space(uint32_t cp)
{
	return (pskd_pretok_class(cp) & PSKD_CLASS_S) != 0;
}

/*
 * NFC's quick check, by utf8proc's own tables: a character NFC leaves as
 * it is beside any other such character or ASCII is one of combining
 * class 0 that no composition takes as its second (utf8proc's comb_index
 * with 0x8000; Hangul's vowel and final jamo, which compose by rule),
 * and that NFC maps to itself (it has no canonical decomposition, or
 * composes back from it).  A run of them is NFC already (UAX #15's quick
 * check: all Yes, classes not decreasing), and ASCII around it is never
 * a second either.  Worked out once a character, below U+30000.
 */
#define INERT_MAX	0x30000

static unsigned char *known;	/* by character: 0 not yet, 1 inert, 2 not */

static int
nfc_inert_first(uint32_t cp)
{
	const utf8proc_property_t *p;
	utf8proc_uint8_t u[4], *dst;
	utf8proc_ssize_t k, len;
	int inert;

	if (cp >= INERT_MAX)
		return 0;
	if (known == NULL)
		known = pskd_xcalloc(INERT_MAX, 1);
	if (known[cp] != 0)
		return known[cp] == 1;
	p = utf8proc_get_property((utf8proc_int32_t)cp);
	inert = p->combining_class == 0 && !(p->comb_index != UINT16_MAX &&
	    (p->comb_index & 0x8000)) && !(cp >= 0x1161 && cp <= 0x1175) &&
	    !(cp >= 0x11a8 && cp <= 0x11c2);
	if (inert && p->decomp_seqindex != UINT16_MAX && p->decomp_type == 0) {
		len = (utf8proc_ssize_t)pskd_utf8_encode(cp, u);
		k = utf8proc_map(u, len, &dst, (utf8proc_option_t)
		    (UTF8PROC_STABLE | UTF8PROC_COMPOSE));
		inert = k == len && memcmp(dst, u, (size_t)k) == 0;
		if (k >= 0)
			free(dst);
	}
	known[cp] = inert ? 1 : 2;
	return inert;
}

static inline int
nfc_inert(uint32_t cp)
{
	if (known != NULL && cp < INERT_MAX && known[cp] != 0)
		return known[cp] == 1;
	return nfc_inert_first(cp);
}

/*
 * The bytes nfc_unchanged() stops at: every lead byte but those of two
 * bytes whose 64 characters all pass nfc_inert() (Latin-1 and Latin
 * Extended, Cyrillic's first two, ...; utf8proc decides).  What it runs
 * past is ASCII, such characters, and bytes that are no character (a
 * continuation alone, a lead cut short): NFC's run through utf8proc
 * copies those as they are, so the text is unchanged with them too.  32
 * bytes a step with AVX2 (pskd_byteset).
 */
static struct pskd_byteset nfc_stops;
static int nfc_stops_ready;

static void
nfc_stops_init(void)
{
	unsigned char in[256] = { 0 };
	unsigned c, k;

	for (c = 0xc0; c < 256; c++) {
		in[c] = 1;
		if (c < 0xc2 || c > 0xdf)
			continue;	/* C0, C1 never begin one */
		for (k = 0; k < 64 && nfc_inert((c & 0x1fu) << 6 | k); k++)
			;
		in[c] = k < 64;
	}
	pskd_byteset_init(&nfc_stops, in);
	nfc_stops_ready = 1;
}

/*
 * 1 when NFC leaves s[0..n) as it is: every character nfc_stops finds is
 * UTF-8 and passes nfc_inert() (so normal_form would copy each of its runs
 * through unchanged).
 */
static int
nfc_unchanged(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t i = 0, k;

	if (!nfc_stops_ready)
		nfc_stops_init();
	while ((i += pskd_byteset_find(&nfc_stops, s + i, n - i)) < n) {
		if ((k = pskd_utf8_decode(s + i, n - i, &cp)) == 0 ||
		    !nfc_inert(cp))
			return 0;
		i += k;
	}
	return 1;
}

int
pskd_hf_normal_already(const struct pskd_hf *hf, const unsigned char *s,
    size_t n)
{
	size_t i;

	for (i = 0; i < hf->nnorm; i++)
		if (hf->norm[i].type != HF_N_NFC)
			return 0;
	return nfc_unchanged(s, n);
}

/*
 * A Unicode normal form of s[0..n) appended to out.  ASCII is in every
 * form and never combines with what comes before it, so only the stretches
 * from the ASCII character before a non-ASCII run to the next ASCII
 * character go through utf8proc, and for NFC not those that its quick
 * check passes.  0; -1 once out is longer than limit.
 */
static int
normal_form(const unsigned char *s, size_t n, int opts, struct pskd_buf *out,
    size_t limit)
{
	utf8proc_uint8_t *dst;
	utf8proc_ssize_t k;
	size_t i = 0, a, b;
	int nfc = opts == (UTF8PROC_STABLE | UTF8PROC_COMPOSE);

	while (i < n) {
		if ((a = i + pskd_utf8_ascii(s + i, n - i)) == n) {
			pskd_buf_add(out, s + i, n - i);
			break;
		}
		if (a > i)
			a--;		/* the character it may combine with */
		pskd_buf_add(out, s + i, a - i);
		for (b = a + 1; b < n && s[b] >= 0x80; b++)
			;
		if (nfc && nfc_unchanged(s + a, b - a)) {
			pskd_buf_add(out, s + a, b - a);
			i = b;
			continue;
		}
		k = utf8proc_map(s + a, (utf8proc_ssize_t)(b - a), &dst,
		    (utf8proc_option_t)opts);
		if (k < 0) {
			pskd_buf_add(out, s + a, b - a);	/* not UTF-8 */
		} else {
			pskd_buf_add(out, dst, (size_t)k);
			free(dst);
		}
		if (out->len > limit)
			return -1;
		i = b;
	}
	return 0;
}

static void
lowercase(const unsigned char *s, size_t n, struct pskd_buf *out)
{
	unsigned char u[4];
	uint32_t cp;
	size_t i, k;

	for (i = 0; i < n; i += k) {
		if (s[i] < 0x80) {
			k = 1;
			pskd_buf_addc(out, (unsigned char)(s[i] >= 'A' &&
			    s[i] <= 'Z' ? s[i] + 32 : s[i]));
			continue;
		}
		if ((k = pskd_utf8_decode(s + i, n - i, &cp)) == 0) {
			k = 1;
			pskd_buf_addc(out, s[i]);
			continue;
		}
		if (cp == 0x130) {		/* İ: i and a dot above */
			pskd_buf_add(out, "i\xcc\x87", 3);
			continue;
		}
		cp = (uint32_t)utf8proc_tolower((utf8proc_int32_t)cp);
		pskd_buf_add(out, u, pskd_utf8_encode(cp, u));
	}
}

static void
strip(const unsigned char *s, size_t n, int left, int right,
    struct pskd_buf *out)
{
	size_t a = 0, b = n, k, j;
	uint32_t cp;

	while (left && a < n && (k = pskd_utf8_decode(s + a, n - a, &cp)) &&
	    is_space(cp))
		a += k;
	while (right && b > a) {
		for (j = b - 1; j > a && (s[j] & 0xc0) == 0x80; j--)
			;
		if (pskd_utf8_decode(s + j, b - j, &cp) == 0 || !is_space(cp))
			break;
		b = j;
	}
	pskd_buf_add(out, s + a, b - a);
}

#if defined(__SSE2__)
/*
 * One step of replace_sse2: the first lim <= 16 bytes at b (32 of them
 * readable) into o, each a there as b8's blen bytes (o has room for 16
 * bytes past its share): a step without a moves its bytes in one store,
 * one with moves the bytes between its a's.  Where o has got to.
 */
static inline unsigned char *
replace_step(const unsigned char *b, size_t lim, unsigned char a, uint64_t b8,
    size_t blen, unsigned char *o)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)b);
	unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
	    _mm_set1_epi8((char)a))) & ((1u << lim) - 1);
	size_t p, q;

	if (m == 0) {
		_mm_storeu_si128((__m128i *)(void *)o, v);
		return o + lim;
	}
	for (p = 0; m != 0; m &= m - 1, p = q + 1) {
		q = (size_t)__builtin_ctz(m);
		_mm_storeu_si128((__m128i *)(void *)o, _mm_loadu_si128(
		    (const __m128i *)(const void *)(b + p)));
		o += q - p;
		memcpy(o, &b8, 8);
		o += blen;
	}
	_mm_storeu_si128((__m128i *)(void *)o, _mm_loadu_si128(
	    (const __m128i *)(const void *)(b + p)));
	return o + lim - p;
}
#endif

/*
 * replace()'s one byte a by the blen <= 8 bytes of b8 on s[0..n), 16
 * bytes a step, into *w (room for 16 bytes past its share); the last
 * bytes from a copy, so that every load stays inside what it reads.  The
 * bytes done: n, or 0 at PSKD_SIMD=portable.
 */
static size_t
replace_sse2(const unsigned char *s, size_t n, unsigned char a, uint64_t b8,
    size_t blen, unsigned char **w)
{
#if defined(__SSE2__)
	static int simd = -1;
	unsigned char *o = *w, tail[64];
	size_t i, j;

	if (simd == -1)
		simd = pskd_simd();
	if (simd < PSKD_SIMD_SSE2)
		return 0;
	for (i = 0; i + 32 <= n; i += 16)
		o = replace_step(s + i, 16, a, b8, blen, o);
	memset(tail, 0, sizeof(tail));
	memcpy(tail, s + i, n - i);
	for (j = 0; i + j < n; j += 16)
		o = replace_step(tail + j, n - i - j < 16 ? n - i - j : 16, a,
		    b8, blen, o);
	*w = o;
	return n;
#else
	(void)s, (void)n, (void)a, (void)b8, (void)blen, (void)w;
	return 0;
#endif
}

/*
 * Every occurrence of r's string, or match of its regex, in s[0..n)
 * replaced: 0; -1 when the text grows past limit (err empty) or the regex
 * gives up (why in err).
 */
static int
replace(const struct pskd_hf_norm *r, const unsigned char *s, size_t n,
    struct pskd_buf *out, size_t limit, char *err, size_t errsize)
{
	static size_t *m, cap;
	const unsigned char *q;
	unsigned char *w;
	size_t k, i, pos = 0;

	if (r->a != NULL && r->alen == 1 && r->blen <= 8 &&
	    n * r->blen <= limit) {
		/*
		 * One byte by at most 8 (Llama 2's and Gemma's spaces by
		 * ▁): every byte stores 8, the byte or the replacement, and
		 * moves on by 1 or by its length, with no branch on which
		 * (a space is a coin toss for the predictor).
		 */
		uint64_t b8 = 0, c, v;
		unsigned char a = (unsigned char)r->a[0];

		memcpy(&b8, r->b, r->blen);
		pskd_buf_reserve(out, n * r->blen + 16);
		w = out->p + out->len;
		i = replace_sse2(s, n, a, b8, r->blen, &w);
		for (; i < n; i++) {
			c = 0;
			memcpy(&c, s + i, 1);	/* s[i] as the first byte */
			v = s[i] == a ? b8 : c;
			memcpy(w, &v, 8);
			w += s[i] == a ? r->blen : 1;
		}
		out->len = (size_t)(w - out->p);
		return 0;
	}
	if (r->a != NULL) {
		/* A string: its occurrences, left to right. */
		while ((q = memmem(s + pos, n - pos, r->a, r->alen)) != NULL) {
			pskd_buf_add(out, s + pos, (size_t)(q - s) - pos);
			pskd_buf_add(out, r->b, r->blen);
			pos = (size_t)(q - s) + r->alen;
			if (out->len > limit)
				return -1;
		}
		pskd_buf_add(out, s + pos, n - pos);
		return 0;
	}
	if (pskd_hf_regex_all(r->re, s, n, &m, &cap, &k, err, errsize) == -1)
		return -1;
	for (i = 0; i < k; i++) {
		pskd_buf_add(out, s + pos, m[2 * i] - pos);
		pskd_buf_add(out, r->b, r->blen);
		pos = m[2 * i + 1];
		if (out->len > limit)
			return -1;
	}
	pskd_buf_add(out, s + pos, n - pos);
	return 0;
}

int
pskd_hf_normalize(const struct pskd_hf *hf, const unsigned char *s, size_t n,
    struct pskd_buf *out, char *err, size_t errsize)
{
	static struct pskd_buf tmp[2];
	const struct pskd_hf_norm *z;
	struct pskd_buf *dst;
	char why[256];
	size_t i, limit;
	int w = 0, rc;

	out->len = 0;
	if (hf->nnorm == 0) {
		pskd_buf_add(out, s, n);
		return 0;
	}
	limit = n > (SIZE_MAX - PSKD_HF_SLACK) / PSKD_HF_GROWTH ? SIZE_MAX :
	    n * PSKD_HF_GROWTH + PSKD_HF_SLACK;
	for (i = 0; i < hf->nnorm; i++) {
		z = &hf->norm[i];
		dst = i + 1 == hf->nnorm ? out : &tmp[w];
		dst->len = 0;
		why[0] = '\0';
		rc = 0;
		switch (z->type) {
		case HF_N_NFC:
			rc = normal_form(s, n, UTF8PROC_STABLE |
			    UTF8PROC_COMPOSE, dst, limit);
			break;
		case HF_N_NFD:
			rc = normal_form(s, n, UTF8PROC_STABLE |
			    UTF8PROC_DECOMPOSE, dst, limit);
			break;
		case HF_N_NFKC:
			rc = normal_form(s, n, UTF8PROC_STABLE |
			    UTF8PROC_COMPOSE | UTF8PROC_COMPAT, dst, limit);
			break;
		case HF_N_NFKD:
			rc = normal_form(s, n, UTF8PROC_STABLE |
			    UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT, dst, limit);
			break;
		case HF_N_LOWER:
			lowercase(s, n, dst);
			break;
		case HF_N_STRIP:
			strip(s, n, z->left, z->right, dst);
			break;
		case HF_N_PREPEND:
			if (n > 0)
				pskd_buf_add(dst, z->a, z->alen);
			pskd_buf_add(dst, s, n);
			break;
		case HF_N_REPLACE:
			rc = replace(z, s, n, dst, limit, why, sizeof(why));
			break;
		}
		if (rc == 0 && dst->len > limit)
			rc = -1;
		if (rc == -1) {
			if (why[0] == '\0')
				snprintf(why, sizeof(why), "it makes the text "
				    "more than %d times as long (pskd-tok's "
				    "limit)", PSKD_HF_GROWTH);
			snprintf(err, errsize, "%llu: the normalizer %s: %s",
			    (unsigned long long)z->line,
			    pskd_hf_norm_names[z->type], why);
			return -1;
		}
		s = dst->p;
		n = dst->len;
		w ^= 1;
	}
	return 0;
}
