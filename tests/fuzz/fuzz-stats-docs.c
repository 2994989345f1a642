/*
 * fuzz-stats-docs - the two readers of a document in pskd-stats held to
 * each other: lib's json.c on the whole line, and stats/jstream.c on the
 * same line cut into pieces.  The first byte picks the members asked for
 * and the size of the pieces; the line is the bytes after it, up to a
 * newline.  Both must accept the same lines, refuse the others with the
 * same message at the same byte, and agree on every member.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "stats/jstream.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const sets[][4] = {
	{ "text", NULL },
	{ "title", "text", NULL },
	{ "a.b", "text", "a", NULL },
	{ "text", "text", "language", NULL },
	{ "meta.lang", "language", "language_score", NULL },
	{ "a.b.c", "a.b", "x", NULL },
};

static uint64_t
chars(const unsigned char *p, size_t n)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		c += (p[i] & 0xC0) != 0x80;
	return c;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_json_field lf[4];
	struct js_field jf[4];
	struct jstream j;
	const uint8_t *nl;
	char err[200];
	size_t off, len, nf, k, piece, at;
	int lr, jr;

	if (size == 0)
		return 0;
	memset(lf, 0, sizeof(lf));
	memset(jf, 0, sizeof(jf));
	for (nf = 0; nf < 4 && sets[data[0] % 6][nf] != NULL; nf++) {
		lf[nf].name = jf[nf].name = sets[data[0] % 6][nf];
		jf[nf].cap = (data[0] >> 3 & 1) ? 7 : 300;
	}
	piece = 1 + (size_t)(data[0] >> 4) * 3;
	data++;
	size--;
	nl = memchr(data, '\n', size);
	len = nl ? (size_t)(nl - data) : size;

	lr = pskd_json_fields(data, len, lf, nf, err, sizeof(err), &off);
	js_begin(&j, jf, nf);
	jr = 0;
	for (at = 0; at < len && jr == 0; at += piece)
		jr = js_feed(&j, data + at, len - at < piece ? len - at :
		    piece);
	if (jr == 0)
		jr = js_end(&j);
	if (lr != jr)
		abort();
	if (lr == -1) {
		if (strcmp(err, j.err) != 0 || off != j.erroff)
			abort();
		goto out;
	}
	for (k = 0; k < nf; k++) {
		const struct pskd_json_field *a = &lf[k];
		const struct js_field *b = &jf[k];
		size_t want;

		if (a->kind != b->kind)
			abort();
		if (b->null != (a->kind == PSKD_JSON_OTHER && a->rawlen == 4 &&
		    memcmp(a->raw, "null", 4) == 0))
			abort();
		if (a->kind == PSKD_JSON_STRING) {
			if (b->bytes != a->value.len ||
			    b->chars != chars(a->value.p, a->value.len))
				abort();
			want = a->value.len < b->cap ? a->value.len : b->cap;
			if (b->value.len != want || (want > 0 &&
			    memcmp(b->value.p, a->value.p, want) != 0) ||
			    b->over != (a->value.len > b->cap))
				abort();
		} else if (a->kind == PSKD_JSON_NUMBER) {
			want = a->rawlen < b->cap ? a->rawlen : b->cap;
			if (b->value.len != want ||
			    memcmp(b->value.p, a->raw, want) != 0)
				abort();
		}
	}
out:
	js_free(jf, nf);
	for (k = 0; k < nf; k++)
		pskd_buf_free(&lf[k].value);
	return 0;
}
