/*
 * fuzz-manifest - pskd_manifest_parse on any bytes.  What it accepts must
 * encode back to exactly the same bytes, keep its file names safe and
 * distinct (each found by its name), and take an added member
 * (pskd_shard_set) and parse again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "get/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_manifest m, again;
	struct pskd_buf b = { NULL, 0, 0 };
	char err[256];
	uint64_t line;
	size_t i;

	pskd_manifest_init(&m);
	if (pskd_manifest_parse(&m, data, size, err, sizeof(err), &line) == 0) {
		pskd_manifest_encode(&m, &b);
		if (b.len != size || memcmp(b.p, data, size) != 0)
			abort();
		for (i = 0; i < m.n; i++) {
			if (!pskd_shard_name_ok(m.shards[i].file))
				abort();
			/* Its name finds it, and only it. */
			if (pskd_manifest_find(&m, m.shards[i].file) !=
			    &m.shards[i])
				abort();
			if (pskd_shard_set(&m.shards[i], "documents", "12") != 0 ||
			    pskd_shard_set(&m.shards[i], "documents", "[1, 2]") != 0)
				abort();
			if (pskd_shard_set(&m.shards[i], "bytes", "1") == 0)
				abort();
		}
		b.len = 0;
		pskd_manifest_encode(&m, &b);
		pskd_manifest_init(&again);
		if (pskd_manifest_parse(&again, b.p, b.len, err, sizeof(err),
		    &line) != 0 || again.n != m.n)
			abort();
		pskd_manifest_free(&again);
	} else if (line == 0)
		abort();
	pskd_manifest_free(&m);
	pskd_buf_free(&b);
	return 0;
}
