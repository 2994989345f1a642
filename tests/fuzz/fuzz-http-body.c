/*
 * fuzz-http-body.c - an HTTP response as a WARC response record holds it
 * (src/warc: http.c, coding.c, charset.c, convert.c): its fields, its
 * body without chunks and content codings (at most 1 MiB), its charset
 * and its text in UTF-8.  What comes out is valid UTF-8, never longer
 * than the bounds, and the same twice.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "warc/warc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct http_resp h;
	struct pskd_buf body = { 0 }, a = { 0 }, b = { 0 };
	const struct charset *cs;
	const char *how;
	char why[256];
	uint64_t bad1, bad2;

	if (http_parse(data, size, &h) == -1)
		return 0;
	if (h.body < data || h.body + h.bodylen != data + size)
		abort();
	if (http_decode(&h, 1 << 20, &body, why, sizeof(why)) == -1)
		goto out;
	if (body.len > 1 << 20)
		abort();
	cs = charset_find(body.p, body.len, h.label, &how, why, sizeof(why));
	if (cs == NULL)
		goto out;
	bad1 = convert_utf8(cs, body.p, body.len, &a);
	bad2 = convert_utf8(cs, body.p, body.len, &b);
	if (bad1 != bad2 || a.len != b.len || (a.len &&
	    memcmp(a.p, b.p, a.len) != 0) ||
	    pskd_utf8_check(a.p, a.len) != a.len)
		abort();
out:
	pskd_buf_free(&body);
	pskd_buf_free(&a);
	pskd_buf_free(&b);
	return 0;
}
