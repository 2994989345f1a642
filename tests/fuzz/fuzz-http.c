/*
 * fuzz-http - pskd_http_feed on any bytes, whole and in two pieces: the
 * same verdict either way, and only sane values out (announced sha256s
 * among them).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "get/curl.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_http a, b;
	size_t used, cut = size / 3;

	pskd_http_init(&a);
	pskd_http_init(&b);
	used = pskd_http_feed(&a, (const char *)data, size);
	if (used > size || (used < size && !a.final))
		abort();
	if (pskd_http_feed(&b, (const char *)data, cut) == cut && !b.final)
		(void)pskd_http_feed(&b, (const char *)data + cut, size - cut);
	if (a.final != b.final || a.status != b.status ||
	    a.length_known != b.length_known || a.length != b.length ||
	    a.range_known != b.range_known ||
	    a.range_start != b.range_start ||
	    (a.etag == NULL) != (b.etag == NULL) ||
	    (a.etag && strcmp(a.etag, b.etag) != 0))
		abort();
	if (a.final && a.status != 0 && (a.status < 100 || a.status > 999))
		abort();
	if (a.retry_after > 600)
		abort();
	/* An announced sha256 is 64 lowercase hex digits, or nothing. */
	if ((a.linked_sha[0] && !pskd_sha256_valid(a.linked_sha, 64)) ||
	    (a.repr_sha[0] && !pskd_sha256_valid(a.repr_sha, 64)) ||
	    (a.digest_sha[0] && !pskd_sha256_valid(a.digest_sha, 64)) ||
	    strcmp(a.linked_sha, b.linked_sha) != 0 ||
	    strcmp(a.repr_sha, b.repr_sha) != 0 ||
	    strcmp(a.digest_sha, b.digest_sha) != 0)
		abort();
	pskd_http_free(&a);
	pskd_http_free(&b);
	return 0;
}
