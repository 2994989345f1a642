/*
 * fuzz-json.c - the JSON Lines field scanner on arbitrary bytes.  What it
 * accepts must agree with itself: an extracted string is valid UTF-8, and
 * quoting it and scanning it again gives the same string back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_json_field f[2] = {
		{ "text", 0, { 0 }, NULL, 0 },
		{ "id", 0, { 0 }, NULL, 0 },
	};
	char err[128];
	size_t off = 0;
	int rc;

	rc = pskd_json_fields(data, size, f, 2, err, sizeof(err), &off);
	if (rc == 0 && f[0].kind == PSKD_JSON_STRING) {
		struct pskd_buf b = { 0 };
		struct pskd_json_field g = { "text", 0, { 0 }, NULL, 0 };

		if (pskd_utf8_check(f[0].value.p, f[0].value.len) !=
		    f[0].value.len)
			abort();
		pskd_buf_add(&b, "{\"text\":", 8);
		pskd_json_quote(&b, f[0].value.p, f[0].value.len);
		pskd_buf_addc(&b, '}');
		if (pskd_json_fields(b.p, b.len, &g, 1, err, sizeof(err),
		    &off) != 0 || g.value.len != f[0].value.len ||
		    (g.value.len && memcmp(g.value.p, f[0].value.p,
		    g.value.len) != 0))
			abort();
		pskd_buf_free(&b);
		pskd_buf_free(&g.value);
	} else if (rc == -1 && off > size)
		abort();
	pskd_buf_free(&f[0].value);
	pskd_buf_free(&f[1].value);
	return 0;
}
