/*
 * hf-decode.c - the decoders of a tokenizer.json: ids to their tokens'
 * text, then each decoder over the list of tokens, as HF decodes.
 */
#define _GNU_SOURCE		/* memmem */
#include <string.h>

#include "pskd.h"
#include "hf.h"
#include "vocab.h"

/* The token list of a decoder's output, k: start with none. */
static void
tok_reset(struct pskd_hf_decoder *h, int k)
{
	h->dbuf[k].len = 0;
}

static void
tok_add(struct pskd_hf_decoder *h, int k, const void *p, size_t n)
{
	if (2 * h->ntok[k] + 2 > h->dcap[k]) {
		h->dcap[k] = h->dcap[k] ? h->dcap[k] * 2 : 512;
		h->dtok[k] = pskd_xreallocarray(h->dtok[k], h->dcap[k],
		    sizeof(**h->dtok));
	}
	h->dtok[k][2 * h->ntok[k]] = h->dbuf[k].len;
	h->dtok[k][2 * h->ntok[k] + 1] = n;
	h->ntok[k]++;
	pskd_buf_add(&h->dbuf[k], p, n);
}

/* Append to the last token of list k. */
static void
tok_grow(struct pskd_hf_decoder *h, int k, const void *p, size_t n)
{
	if (h->ntok[k] == 0)
		tok_add(h, k, "", 0);
	h->dtok[k][2 * h->ntok[k] - 1] += n;
	pskd_buf_add(&h->dbuf[k], p, n);
}

/* A token's text through the ByteLevel alphabet (HF's rule). */
static void
byte_level(struct pskd_hf_decoder *h, int k, const unsigned char *s, size_t n)
{
	size_t i, c;
	uint32_t cp;
	int b;

	for (i = 0; i < n; i += c) {
		if ((c = pskd_utf8_decode(s + i, n - i, &cp)) == 0 ||
		    pskd_hf_char_byte(cp) < 0) {
			tok_grow(h, k, s, n);	/* not in it: as it is */
			return;
		}
	}
	for (i = 0; i < n; i += c) {
		c = pskd_utf8_decode(s + i, n - i, &cp);
		b = pskd_hf_char_byte(cp);
		tok_grow(h, k, &(unsigned char){ (unsigned char)b }, 1);
	}
}

static int
hexdig(unsigned c)
{
	if (c >= '0' && c <= '9')
		return (int)(c - '0');
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (int)((c | 0x20) - 'a' + 10);
	return -1;
}

/* <0xNN>: the byte, or -1. */
static int
fallback_byte(const unsigned char *s, size_t n)
{
	int hi, lo;

	if (n != 6 || memcmp(s, "<0x", 3) != 0 || s[5] != '>' ||
	    (hi = hexdig(s[3])) < 0 || (lo = hexdig(s[4])) < 0)
		return -1;
	return hi << 4 | lo;
}

/* s[0..n) with every a replaced by b, into the last token of list k. */
static void
replace_all(struct pskd_hf_decoder *h, int k, const unsigned char *s, size_t n,
    const struct pskd_hf_dec *d)
{
	const unsigned char *p;
	size_t pos = 0;

	while ((p = memmem(s + pos, n - pos, d->a, d->alen)) != NULL) {
		tok_grow(h, k, s + pos, (size_t)(p - s) - pos);
		tok_grow(h, k, d->b, d->blen);
		pos = (size_t)(p - s) + d->alen;
	}
	tok_grow(h, k, s + pos, n - pos);
}

/* The added token with this id, or NULL. */
static const struct pskd_hf_added *
added_id(const struct pskd_hf *hf, uint32_t id)
{
	size_t i;

	for (i = 0; i < hf->nadded; i++)
		if (hf->added[i].id == id)
			return &hf->added[i];
	return NULL;
}

/* A byte-level vocabulary's token as the alphabet writes it. */
static void
alphabet(struct pskd_hf_decoder *h, int k, const unsigned char *s, size_t n)
{
	unsigned char u[4];
	size_t i;

	for (i = 0; i < n; i++)
		tok_grow(h, k, u, pskd_utf8_encode(pskd_hf_byte_char(s[i]), u));
}

/*
 * HF's decode of a run of ids: each id's token (an added token's text
 * first), then the decoders one after another over the list of tokens;
 * no decoder joins the tokens with spaces.
 */
int
pskd_hf_decode(const struct pskd_hf *hf, struct pskd_hf_decoder *h,
    const uint32_t *ids, size_t n, int flags, struct pskd_buf *out,
    size_t *bad)
{
	const struct pskd_hf_dec *d;
	const struct pskd_hf_added *ad;
	const struct pskd_ranks *r = &hf->vocab;
	const unsigned char *s;
	size_t i, j, len, a, b, x, c;
	int in = 0, o = 1, fused = 0, byte, fast;
	uint32_t cp;

	/* Llama 3's and Qwen's: the bytes of the tokens, as they are. */
	fast = hf->bytelevel && hf->ndec == 1 &&
	    hf->dec[0].type == HF_D_BYTELEVEL;
	h->ntok[0] = 0;
	tok_reset(h, 0);
	if (fast)
		tok_add(h, 0, "", 0);
	for (i = 0; i < n; i++) {
		if (hf->nadded > 0 && (ad = added_id(hf, ids[i])) != NULL) {
			if (fast)
				byte_level(h, 0,
				    (const unsigned char *)ad->text, ad->len);
			else
				tok_add(h, 0, ad->text, ad->len);
			continue;
		}
		if (ids[i] >= r->n || r->len[ids[i]] == 0) {
			*bad = i;
			return -1;
		}
		s = r->bytes + r->off[ids[i]];
		len = r->len[ids[i]];
		if (fast) {
			tok_grow(h, 0, s, len);
		} else if (hf->bytelevel) {
			tok_add(h, 0, "", 0);
			alphabet(h, 0, s, len);
		} else
			tok_add(h, 0, s, len);
	}
	if (fast) {
		pskd_buf_add(out, h->dbuf[0].p, h->dbuf[0].len);
		return 0;
	}
	if (hf->ndec == 0) {
		for (i = 0; i < h->ntok[0]; i++) {
			if (i > 0 || !(flags & PSKD_DEC_FIRST))
				pskd_buf_addc(out, ' ');
			pskd_buf_add(out, h->dbuf[0].p + h->dtok[0][2 * i],
			    h->dtok[0][2 * i + 1]);
		}
		return 0;
	}
	for (j = 0; j < hf->ndec; j++) {
		d = &hf->dec[j];
		h->ntok[o] = 0;
		tok_reset(h, o);
		for (i = 0; i < h->ntok[in]; i++) {
			s = h->dbuf[in].p + h->dtok[in][2 * i];
			len = h->dtok[in][2 * i + 1];
			switch (d->type) {
			case HF_D_BYTELEVEL:
				if (i == 0)
					tok_add(h, o, "", 0);
				byte_level(h, o, s, len);
				break;
			case HF_D_FUSE:
				if (i == 0)
					tok_add(h, o, "", 0);
				tok_grow(h, o, s, len);
				break;
			case HF_D_BYTEFALLBACK:
				/* A run of <0xNN>: its bytes as one token. */
				if ((byte = fallback_byte(s, len)) < 0) {
					tok_add(h, o, s, len);
					break;
				}
				if (i == 0 || fallback_byte(h->dbuf[in].p +
				    h->dtok[in][2 * i - 2],
				    h->dtok[in][2 * i - 1]) < 0)
					tok_add(h, o, "", 0);
				tok_grow(h, o, &(unsigned char){
				    (unsigned char)byte }, 1);
				break;
			case HF_D_STRIP:
				a = 0;
				b = len;
				if (!fused || (flags & PSKD_DEC_FIRST))
					for (x = 0; x < (size_t)d->start &&
					    a + d->alen <= b && memcmp(s + a,
					    d->a, d->alen) == 0; x++)
						a += d->alen;
				if (!fused || (flags & PSKD_DEC_LAST))
					for (x = 0; x < (size_t)d->stop &&
					    b >= a + d->alen && memcmp(s + b -
					    d->alen, d->a, d->alen) == 0; x++)
						b -= d->alen;
				tok_add(h, o, s + a, b - a);
				break;
			case HF_D_REPLACE:
				tok_add(h, o, "", 0);
				replace_all(h, o, s, len, d);
				break;
			case HF_D_METASPACE:
				tok_add(h, o, "", 0);
				for (a = 0; a < len; a += c) {
					c = pskd_utf8_decode(s + a, len - a,
					    &cp);
					if (c == 0)
						c = 1;
					if (c != d->alen || memcmp(s + a, d->a,
					    c) != 0)
						tok_grow(h, o, s + a, c);
					else if (!(i == 0 && (flags &
					    PSKD_DEC_FIRST) &&
					    d->prepend != HF_PREPEND_NEVER))
						tok_grow(h, o, " ", 1);
				}
				break;
			}
		}
		if (d->type == HF_D_BYTELEVEL || d->type == HF_D_FUSE)
			fused = 1;
		in = o;
		o ^= 1;
	}
	pskd_buf_add(out, h->dbuf[in].p, h->dbuf[in].len);
	return 0;
}

