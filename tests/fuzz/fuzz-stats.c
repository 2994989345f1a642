/*
 * fuzz-stats - a pskd-stats object read back from any bytes (jv_parse,
 * stats_parse).  What it accepts must write out and read back to the same
 * line (a fixed point), and merge with itself into an object that reads
 * back too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "stats/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stats s, t, u;
	struct pskd_buf a = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	char err[300];

	if (stats_read(&s, data, size, err, sizeof(err)) == -1) {
		if (err[0] == '\0')
			abort();
		stats_free(&s);
		return 0;
	}
	stats_json(&a, &s, 5);
	if (stats_read(&t, a.p, a.len - 1, err, sizeof(err)) == -1)
		abort();
	stats_json(&b, &t, 5);
	if (a.len != b.len || memcmp(a.p, b.p, a.len) != 0)
		abort();
	if (stats_read(&u, a.p, a.len - 1, err, sizeof(err)) == -1 ||
	    stats_merge(&t, &u, err, sizeof(err)) == -1)
		abort();
	b.len = 0;
	stats_json(&b, &t, 5);
	stats_free(&u);
	if (stats_read(&u, b.p, b.len - 1, err, sizeof(err)) == -1 ||
	    u.n != 2 * s.n || u.bytes != 2 * s.bytes)
		abort();
	stats_free(&s);
	stats_free(&t);
	stats_free(&u);
	pskd_buf_free(&a);
	pskd_buf_free(&b);
	return 0;
}
