/*
 * hf-norm.c - the normalizers of tokenizer.json, in the order given: NFC,
 * NFD, NFKC, NFKD (utf8proc), Lowercase (Rust's char::to_lowercase, a
 * character at a time: İ becomes i and a dot, Σ always σ), Strip
 * (White_Space at either end),
 * Prepend (before a text that is not empty), Replace (a string or a
 * regular expression, every match left to right).
 */
#define _GNU_SOURCE		/* memmem */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "pskd.h"
#include "hf.h"
#include "bpe-pretok.h"

static int
is_space(uint32_t cp)
{
	return (pskd_pretok_class(cp) & PSKD_CLASS_S) != 0;
}

/*
 * A Unicode normal form of s[0..n) appended to out.  ASCII is in every
 * form and never combines with what comes before it, so only the stretches
 * from the ASCII character before a non-ASCII run to the next ASCII
 * character go through utf8proc.
 */
static void
normal_form(const unsigned char *s, size_t n, int opts, struct pskd_buf *out)
{
	utf8proc_uint8_t *dst;
	utf8proc_ssize_t k;
	size_t i = 0, a, b;

	while (i < n) {
		for (a = i; a < n && s[a] < 0x80; a++)
			;
		if (a == n) {
			pskd_buf_add(out, s + i, n - i);
			break;
		}
		if (a > i)
			a--;		/* the character it may combine with */
		pskd_buf_add(out, s + i, a - i);
		for (b = a + 1; b < n && s[b] >= 0x80; b++)
			;
		k = utf8proc_map(s + a, (utf8proc_ssize_t)(b - a), &dst,
		    (utf8proc_option_t)opts);
		if (k < 0) {
			pskd_buf_add(out, s + a, b - a);	/* not UTF-8 */
		} else {
			pskd_buf_add(out, dst, (size_t)k);
			free(dst);
		}
		i = b;
	}
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

static void
replace(const struct pskd_hf_norm *r, const unsigned char *s, size_t n,
    struct pskd_buf *out)
{
	static size_t *m, cap;
	const unsigned char *q;
	size_t k, i, pos = 0;

	if (r->a != NULL) {
		/* A string: its occurrences, left to right. */
		while ((q = memmem(s + pos, n - pos, r->a, r->alen)) != NULL) {
			pskd_buf_add(out, s + pos, (size_t)(q - s) - pos);
			pskd_buf_add(out, r->b, r->blen);
			pos = (size_t)(q - s) + r->alen;
		}
		pskd_buf_add(out, s + pos, n - pos);
		return;
	}
	k = pskd_hf_regex_all(r->re, s, n, &m, &cap);
	for (i = 0; i < k; i++) {
		pskd_buf_add(out, s + pos, m[2 * i] - pos);
		pskd_buf_add(out, r->b, r->blen);
		pos = m[2 * i + 1];
	}
	pskd_buf_add(out, s + pos, n - pos);
}

void
pskd_hf_normalize(const struct pskd_hf *hf, const unsigned char *s, size_t n,
    struct pskd_buf *out)
{
	static struct pskd_buf tmp[2];
	const struct pskd_hf_norm *z;
	struct pskd_buf *dst;
	size_t i;
	int w = 0;

	out->len = 0;
	if (hf->nnorm == 0) {
		pskd_buf_add(out, s, n);
		return;
	}
	for (i = 0; i < hf->nnorm; i++) {
		z = &hf->norm[i];
		dst = i + 1 == hf->nnorm ? out : &tmp[w];
		dst->len = 0;
		switch (z->type) {
		case HF_N_NFC:
			normal_form(s, n, UTF8PROC_STABLE | UTF8PROC_COMPOSE,
			    dst);
			break;
		case HF_N_NFD:
			normal_form(s, n, UTF8PROC_STABLE | UTF8PROC_DECOMPOSE,
			    dst);
			break;
		case HF_N_NFKC:
			normal_form(s, n, UTF8PROC_STABLE | UTF8PROC_COMPOSE |
			    UTF8PROC_COMPAT, dst);
			break;
		case HF_N_NFKD:
			normal_form(s, n, UTF8PROC_STABLE |
			    UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT, dst);
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
			replace(z, s, n, dst);
			break;
		}
		s = dst->p;
		n = dst->len;
		w ^= 1;
	}
}
