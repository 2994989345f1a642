/*
 * fuzz-checkpoint - pskd_checkpoint_parse on any bytes.  What it accepts
 * must encode to a checkpoint that parses to the same fields.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "get/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_checkpoint c, d;
	struct pskd_buf b = { NULL, 0, 0 };
	char err[256];

	if (pskd_checkpoint_parse(&c, data, size, err, sizeof(err)) != 0)
		return 0;
	pskd_checkpoint_encode(&c, &b);
	if (pskd_checkpoint_parse(&d, b.p, b.len, err, sizeof(err)) != 0)
		abort();
	if (!same(c.url, d.url) || c.verified != d.verified ||
	    c.expected_known != d.expected_known ||
	    (c.expected_known && c.expected != d.expected) ||
	    strcmp(c.sha256, d.sha256) != 0 || !same(c.etag, d.etag) ||
	    !same(c.last_modified, d.last_modified))
		abort();
	pskd_checkpoint_clear(&c);
	pskd_checkpoint_clear(&d);
	pskd_buf_free(&b);
	return 0;
}
