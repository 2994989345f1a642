/*
 * convert.c - a page's bytes to UTF-8: UTF-8 itself checked here, every
 * other charset through glibc's iconv(3).  A byte that does not decode
 * (ill-formed UTF-8, an unmapped byte, a sequence cut short) becomes one
 * U+FFFD and is counted; decoding goes on after it.  The iconv handles
 * are opened once per charset and kept.
 */
#include <errno.h>
#include <iconv.h>
#include <string.h>

#include "warc/warc.h"

#define MAXCD	16

static struct {
	const char	*name;
	iconv_t		 cd;
} cds[MAXCD];
static size_t ncds;

static const unsigned char fffd[3] = { 0xef, 0xbf, 0xbd };

static iconv_t
handle(const char *name)
{
	size_t i;

	for (i = 0; i < ncds; i++)
		if (cds[i].name == name) {
			iconv(cds[i].cd, NULL, NULL, NULL, NULL);
			return cds[i].cd;
		}
	if (ncds == MAXCD)
		return (iconv_t)-1;
	cds[ncds].cd = iconv_open("UTF-8", name);
	if (cds[ncds].cd == (iconv_t)-1)
		return cds[ncds].cd;
	cds[ncds].name = name;
	return cds[ncds++].cd;
}

static uint64_t
from_utf8(const unsigned char *p, size_t n, struct pskd_buf *out)
{
	uint64_t bad = 0;
	size_t k;

	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
		p += 3;
		n -= 3;
	}
	pskd_buf_reserve(out, n);
	for (;;) {
		k = pskd_utf8_check(p, n);
		pskd_buf_add(out, p, k);
		if (k == n)
			return bad;
		pskd_buf_add(out, fffd, 3);
		bad++;
		p += k + 1;
		n -= k + 1;
	}
}

uint64_t
convert_utf8(const struct charset *cs, const unsigned char *p, size_t n,
    struct pskd_buf *out)
{
	char *in, *o;
	size_t inleft, oleft, r;
	uint64_t bad = 0;
	iconv_t cd;

	if (cs->iconv == NULL)
		return from_utf8(p, n, out);
	/* A BOM of the charset: not part of the text. */
	if (n >= 2 && ((p[0] == 0xfe && p[1] == 0xff) ||
	    (p[0] == 0xff && p[1] == 0xfe)) && strncmp(cs->iconv, "UTF-16",
	    6) == 0) {
		p += 2;
		n -= 2;
	}
	if ((cd = handle(cs->iconv)) == (iconv_t)-1) {
		/* This libc cannot read it: every byte past ASCII is bad. */
		for (r = 0; r < n; r++) {
			if (p[r] < 0x80)
				pskd_buf_addc(out, p[r]);
			else {
				pskd_buf_add(out, fffd, 3);
				bad++;
			}
		}
		return bad;
	}
	in = (char *)p;
	inleft = n;
	pskd_buf_reserve(out, n * 2 + 16);
	for (;;) {
		o = (char *)out->p + out->len;
		oleft = out->cap - out->len;
		r = iconv(cd, inleft ? &in : NULL, &inleft, &o, &oleft);
		out->len = (size_t)((unsigned char *)o - out->p);
		if (r != (size_t)-1) {
			if (inleft == 0)
				break;
			continue;
		}
		if (errno == E2BIG) {
			pskd_buf_reserve(out, inleft * 2 + 64);
			continue;
		}
		/* EILSEQ, or EINVAL (cut short at the end): one byte. */
		pskd_buf_reserve(out, 3);
		pskd_buf_add(out, fffd, 3);
		bad++;
		in++;
		inleft--;
		if (inleft == 0)
			break;
	}
	/* The shift state's end (ISO-2022-JP). */
	o = (char *)out->p + out->len;
	oleft = out->cap - out->len;
	if (oleft < 16) {
		pskd_buf_reserve(out, 16);
		o = (char *)out->p + out->len;
		oleft = out->cap - out->len;
	}
	(void)iconv(cd, NULL, NULL, &o, &oleft);
	out->len = (size_t)((unsigned char *)o - out->p);
	return bad;
}

void
convert_free(void)
{
	size_t i;

	for (i = 0; i < ncds; i++)
		iconv_close(cds[i].cd);
	ncds = 0;
}
